"""COMET computed here: every system of a corpus scored against its first reference with
a COMET model on this machine (``manage.py comet``), one score per segment, ready to be
imported as a named metric beside the app's own.

**An environment of its own.** unbabel-comet (2.2.7) requires numpy<2, and the app runs
numpy 2: COMET cannot live in the app's environment. It has its own, made by ``make
comet`` from ``annotation/comet/requirements.txt`` outside the checkout (the
``EVALTOOL_COMET_PYTHON`` setting: by default ``$XDG_CACHE_HOME/evaltool/comet-venv``,
shared by every clone of the machine), and the app runs :mod:`annotation.comet.scorer`
with that environment's python as a child process: the texts go in as a JSON-lines file,
the scores come back on its standard output with its progress (the scorer's docstring
has the exchange). The app imports nothing of COMET, torch or their numpy.

**Nothing is downloaded at run time.** The model is a path on this machine; the scorer
refuses one whose files (or whose encoder's) are not all here, and runs Hugging Face's
libraries offline. Getting a real model is a step of its own, done beforehand
(docs/metrics.md, "COMET computed here").

**Real size.** 1,000 sentences × 20 systems is 20,000 candidates: they go to one child
process, which loads the model once and scores them in sorted batches. A candidate that
several systems share (short sentences often are) is scored once.

:func:`comet_scores` gives each system's scores in sentence order, the shape
:func:`annotation.statistics.external_metric_store` stores as a named metric, and
:func:`metrics.segment_scores.segment_scores_tsv` writes as the file ``manage.py
import_scores`` reads (``system<TAB>segment<TAB>score``, segments from 1).
"""

from annotation.comet.scores import (
    DEFAULT_BATCH_SIZE,
    CometRefused,
    CometSamples,
    Progress,
    comet_python,
    comet_samples,
    comet_scores,
    run_scorer,
)

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "CometRefused",
    "CometSamples",
    "Progress",
    "comet_python",
    "comet_samples",
    "comet_scores",
    "run_scorer",
]
