"""Temporary re-export, removed after the restructuring lands.

The evalTrans format lives in ``annotation/corpora/evaltrans/``; code still importing
from here keeps working until every caller imports from there.
"""

from annotation.corpora.evaltrans import *  # noqa: F403
