"""Temporary re-export, removed after the restructuring lands.

Imports and exports live in ``annotation/corpora/``, accounts in ``annotation/accounts.py``;
code still importing from here keeps working until every caller imports from there.
"""

from annotation.accounts import user_upsert
from annotation.corpora.exports import corpus_export
from annotation.corpora.imports import (
    ImportRefused,
    ImportSummary,
    corpus_import,
    corpus_import_text,
)

__all__ = [
    "ImportRefused",
    "ImportSummary",
    "corpus_export",
    "corpus_import",
    "corpus_import_text",
    "user_upsert",
]
