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
  judged by two or more judges; each judge's control items (pass rate, consistency, a
  flag below the lead's threshold: :mod:`annotation.controls`), which no figure counts;
* **effort** — seed 001 Table 3: minutes per system and method, sentences per hour;
* **estimates** — per system and human metric, the estimate of the mean over every
  sentence of the corpus beside the plain mean of the judged ones (issue 28);
* **meta-evaluation** — seed 000 §4 (Pearson's r) and seed 002 (Kendall's τ) of every
  automatic metric against SSER and aWER, at sentence and at system level;
* **drill-down** — one system's sentences sorted by a metric or by the difference to
  another system, with the edit operations against the nearest reference.

Why it is fast. Tokenizing and scoring a corpus is the only expensive step, and its
result depends only on the corpus texts and the preprocessing choices. So the
per-segment automatic statistics are computed by a worker (:mod:`annotation.statistics.
jobs`) and *stored* in the database with their scores, signatures and paired bootstrap
(:class:`~annotation.models.CorpusStatistics`): the import queues the default choice's,
a page that finds a choice not stored queues it and shows its progress until it is
(:class:`~annotation.dashboard.parts.Pending`), and a page reads them back in one query
— no view ever tokenizes a corpus.

Everything derived from the judgments (human figures and their bootstrap, judges,
agreement, effort, the human side of the meta-evaluation) is remembered under the
corpus's *judgments stamp* (:mod:`~annotation.statistics.memo`), a counter on the corpus
row that moves in the transaction that changes a done judgment: in the process's memory,
and in the store every app process shares (:mod:`~annotation.statistics.shared`). The
corpus row is read by every view anyway, so a later view costs no query of judgments and
only renders; a judgment finished a second ago has moved the stamp, so the next view
computes those parts afresh (one query of judgments for all of them), once for every
server — never a stale figure. Only the drill-down reads judgments on every view: those
of the one or two systems it shows.

Memory stays bounded: scoring a corpus keeps no tokens once done (the whole corpus is
encoded as integer arrays, uncached), the memory of derived parts is a small LRU of small
frozen results, and no view holds the judgment rows beyond its request.

Where each part lives:

* ``inputs`` — what a view is made from (:class:`~annotation.dashboard.inputs.
  DashboardInputs`: the corpus, the preprocessing choice, normalization, sort, ranking);
* ``parts`` — how it is built: one function per part, each computed at most once per
  view (:class:`~annotation.dashboard.parts.Parts`), ``Pending`` while a worker computes
  the figures, and the panels' registry; ``sources`` — what every panel reads (the
  statistics, the systems, the judgments, the bootstrap); ``figures`` — what more than
  one panel shows (the human figures, the table, the estimates);
* ``panels`` — one module per panel, each registering the part that builds what its
  template shows, in the page's order; ``board`` — the page (header and panels) or one
  panel, as a view shows them;
* ``preprocessing`` — seed 000's choices and the references (original or the grown
  pool) as query parameters and a partial signature;
* ``pool`` — the grown pool's figures, reference counts and ranking shifts;
* ``table`` — the table's cells, rows, sort and the paired bootstrap behind them;
  ``export`` — the table as ``table.json`` (``manage.py scores --json``'s shape) and CSV;
* ``estimates`` — each human figure's estimate of the whole corpus, with the automatic
  metrics as control variates, and rank groups from them (``?rank=estimate``);
* ``judges``, ``effort``, ``meta``, ``drill`` — the other panels and the drill-down;
* ``charts`` — the SVG charts (no Django); ``views`` and ``urls`` — the pages.

A metric's label, direction and unit are its :class:`~metrics.stats.MetricInfo`
(:func:`metrics.registry.metric_info`), never a table kept here.
"""
