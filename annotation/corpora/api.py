"""What the other features use of the corpora, and nothing else: they import it from
here, never from a module of the package (``annotation/tests/test_layout.py`` checks).
The dashboard offers a corpus's judgments as MQM-style error annotations, written by
the corpora's export of them (:mod:`~annotation.corpora.mqm`), as ``manage.py
export_mqm`` does.
"""

from annotation.corpora.mqm import mqm_json, mqm_tsv

__all__ = ["mqm_json", "mqm_tsv"]
