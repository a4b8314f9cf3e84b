"""Temporary re-export, removed after the restructuring lands.

Imports and exports live in ``annotation/corpora/``; code still importing from here
keeps working until every caller imports from there.
"""

from annotation.corpora.imports import (
    ImportRefused,
    ImportSummary,
    corpus_export,
    corpus_import,
    corpus_import_text,
    user_upsert,
)

__all__ = [
    "ImportRefused",
    "ImportSummary",
    "corpus_export",
    "corpus_import",
    "corpus_import_text",
    "user_upsert",
]
