"""The leads' dashboard (issue 5): which system is better, and how sure that is.

A project lead opens one page per corpus. It gathers what the seeds compare:

* **the metrics table** — every metric per system, the figures of ``manage.py scores``
  (the same :mod:`metrics` objects compute them on the same rows), each with a 95%
  bootstrap interval and an *earned* rank group (seed 001 Figure 2 ranks "1 better /
  2 intermediate / 3 worse" by eye; here :mod:`metrics.significance` groups systems whose
  difference is not significant under paired bootstrap resampling, 1,000 samples, seed
  12345, p < 0.05). Human metrics are compared on the sentences both systems have
  judgments for (the masks of :meth:`metrics.significance.Bootstrap.compare`);
* **judges** — per judge the judgments, mean score, SSER, aWER and active time; the
  (0, 1) evaluator normalization of seed 000 §3.5 as a toggle; agreement on candidates
  judged by two or more judges;
* **effort** — seed 001 Table 3: minutes per system and method, sentences per hour;
* **meta-evaluation** — seed 000 §4 (Pearson's r) and seed 002 (Kendall's τ) of every
  automatic metric against SSER and aWER, at sentence and at system level;
* **drill-down** — one system's sentences sorted by a metric or by the difference to
  another system, with the edit operations against the nearest reference.

Why it is fast. Tokenizing and scoring a corpus is the only expensive step (about a
second for 1,000 sentences × 20 systems × 3 references), and its result depends only on
the corpus texts — which never change after import — and the preprocessing choices. So
the per-segment automatic statistics of each corpus are kept in the file cache
(``settings.CACHES["default"]``) per preprocessing choice; a page view then only sums
rows. Human statistics need no cache: a judgment's ``edits``, ``ref_length`` and
``sser`` *are* its per-segment statistics, read in one query, so a judgment changed a
second ago shows at once and nothing ever needs invalidating. The paired bootstrap
results are cached too: the automatic ones beside their statistics, the human ones under
a fingerprint of the judgments' statistics, so a changed judgment is a new key rather
than a stale entry.

Where each part lives:

* ``board`` — :class:`~annotation.dashboard.board.Dashboard`, each part computed on first
  use, and ``PANELS``, the page's one list of panels;
* ``preprocessing`` — seed 000's choices as query parameters and a partial signature;
* ``cache`` — the cached statistics and bootstrap results, and their keys;
* ``table`` — the table's cells, rows, sort and the paired bootstrap behind them;
  ``export`` — the table as ``table.json`` (``manage.py scores --json``'s shape) and CSV;
* ``judges``, ``effort``, ``meta``, ``drill`` — the other panels and the drill-down;
* ``charts`` — the SVG charts (no Django); ``views`` and ``urls`` — the pages.

A metric's label, direction and unit are its :class:`~metrics.stats.MetricInfo`
(:func:`metrics.registry.metric_info`), never a table kept here.
"""
