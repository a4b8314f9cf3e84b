"""What the other features use of the corpora, and nothing else: they import it from
here, never from a module of the package (``annotation/tests/test_layout.py`` checks).
The dashboard offers a corpus's judgments as MQM-style error annotations, written by
the corpora's export of them (:mod:`~annotation.corpora.mqm`), as ``manage.py
export_mqm`` does; its ESA judgments as Appraise's CSV (:mod:`~annotation.corpora.
appraise_export`, as ``export_appraise``) and its human scores as mt-metrics-eval's
files (:mod:`~annotation.corpora.score_exports`, as ``export_scores --format mtme``).
"""

from annotation.corpora.appraise_csv import appraise_csv_lines
from annotation.corpora.appraise_export import appraise_rows
from annotation.corpora.mqm import mqm_json, mqm_tsv
from annotation.corpora.score_exports import (
    chosen_file,
    chosen_scores,
    default_scores,
    has_seg_score,
)

__all__ = [
    "appraise_csv_lines",
    "appraise_rows",
    "chosen_file",
    "chosen_scores",
    "default_scores",
    "has_seg_score",
    "mqm_json",
    "mqm_tsv",
]
