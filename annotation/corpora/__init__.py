"""Corpora: evalTrans XML in and out, imports and exports, the home, upload and download pages."""
