"""Adaptive dealing (issue 43): a campaign's batches dealt where judgments are expected to
resolve the pairs of systems still open, each with a recorded chance, and the estimates
weighted by it.

* :mod:`~annotation.adaptive.design`: what a corpus recorded (its rounds, each batch's
  chance, the judged scores and the covariates) as :mod:`metrics.adaptive` reads it;
* :mod:`~annotation.adaptive.rounds`: the warm-up drawn with the batches, and each next
  round drawn when the one before is dealt (the policy: :func:`metrics.adaptive.
  batch_probabilities`);
* :mod:`~annotation.adaptive.status`: the weighted estimates, their rank groups, the
  pairs resolved and open and the judgments left, for the dashboard's panel and the
  campaign page.

The policy and the weighting are :mod:`metrics.adaptive`'s, the same code
``python -m metrics simulate`` replays (``docs/simulate.md``).
"""
