"""The evalTrans schema as models (filled in by the corpus issue)."""
