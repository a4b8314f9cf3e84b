"""What the other features use of the judge's work, and nothing else: they import it
from here, never from a module of the package (``annotation/tests/test_layout.py``
checks). The lead's home (:mod:`annotation.corpora`) lists the judge's batches, each
with its progress, as the judge's own page does (:mod:`~annotation.judging.batches`).
"""

from annotation.judging.batches import JudgeBatch, judge_batches

__all__ = ["JudgeBatch", "judge_batches"]
