"""evaltool's metrics engine: pure Python + numpy, never imports Django.

Every metric works in two steps, like sacreBLEU's: each segment yields a row of
*sufficient statistics* (``segment_stats`` → numpy array, segments × k), and a score
is a function of summed rows (``score_from_stats``). Corpus scores, sentence scores,
live updates after one judgment and bootstrap resampling all come from the same rows.

References are given *segment-major*: ``refs[k]`` is the tuple of reference strings of
segment ``k``, its first element the "first reference" (the one WER and SER use).
Segments may have different numbers of references.
"""

__version__ = "0.1.0"
