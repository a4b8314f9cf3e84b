"""Side-by-side judging (issue 42, point 1): 2 to 4 systems' candidates of one source on
one screen, each judged by the corpus's protocol (ESA or MQM spans, ESA's score; aWER's
new reference and SSER, and IER's items where IER is on), with the judge's preference:
the better of two, or the best of 3 or 4.

* :mod:`~annotation.sidebyside.queue`: the corpus's setting, and each judge's queue of
  screens drawn balanced (:mod:`metrics.pairing`) and stored.
* :mod:`~annotation.sidebyside.actions`: what a click does: the preference, accept & next.
* :mod:`~annotation.sidebyside.screen`: what a screen shows.
* :mod:`~annotation.sidebyside.figures`: win rates, the Bradley–Terry ranking and the
  agreement on preferences (:mod:`metrics.pairwise`).
* :mod:`~annotation.sidebyside.views`, :mod:`~annotation.sidebyside.urls`: thin views.

A candidate's spans and score (aWER: its new reference and SSER) are changed by the
single-candidate page's own service
functions (:data:`annotation.judging.views.CHANGES`), so the rules, the undo stack and
the stamps the figures read are the same on both pages.
"""
