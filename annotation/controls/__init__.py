"""Quality control with control items (issue 11, point 3): known answers mixed into each
judge's queue, so a lead learns which judge is clicking through carelessly.

A lead turns control items on per corpus (``Corpus.controls_enabled``), with a rate (one
control in every ``control_rate`` items) and a pass threshold (``control_pass_threshold``,
percent): :mod:`~annotation.controls.views` (``/controls/<corpus>/``, leads only) or
``manage.py controls``. Two kinds of control (``Judgment.control``):

* a reference translation shown as a candidate — expected: no edit left once the judge
  accepts it, and SSER 9 or 10;
* a candidate the judge has already judged, shown again later — expected: the same new
  reference and an SSER within 1 (the judge's consistency).

The modules:

* ``queue`` — where the controls go in a judge's queue (one in every ``rate`` items at a
  seeded random place, never at the end, never two in a row) and which ones; the judging
  package opens them (:func:`annotation.judging.start.next_judgment_for`) on the same page
  as any candidate, so a judge cannot tell them apart: a reference carries a system's
  label ("System N", blind corpora only) and that system's place and live figures;
* ``quality`` — each judge's controls done, passed, pass rate, consistency, flagged; the
  dashboard's judges panel shows them;
* ``scored`` — in an ESA or MQM corpus (issue 41), whose judges give scores rather than
  new references, the kinds drawn are a candidate with injected errors and a candidate
  shown again, passed by their scores against the original's within the drop and
  tolerance the lead sets (``Corpus.control_esa_drop`` … ``control_mqm_tolerance``);
* ``forms``, ``views``, ``urls`` — the lead's settings page.

**Control items never count.** A control is a :class:`~annotation.models.Judgment` (so the
judge's page, its services, undo and active time work unchanged) marked by its
``control`` kind, and every figure and progress count reads
:meth:`~annotation.models.JudgmentQuerySet.counted` (done, no control item): the scores,
the dashboard (table, charts, judges' figures and agreement, effort, meta-evaluation,
drill-down, downloads), the judge's live figures, queue and reference pool, and the
progress on the home page and in the judge's header. The evalTrans export leaves control
items out (:mod:`annotation.corpora.exports`): the format cannot mark one, and a file
read back would turn it into a real judgment.
"""
