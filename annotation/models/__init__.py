"""The app's models, one package so Django registers them all from one import.

* :mod:`~annotation.models.corpus`: the evalTrans schema (seed 001 §3.1): corpora, their
  translators, sentences and targets.
* :mod:`~annotation.models.judgment`: the judges' judgments of the targets (which the
  corpus's querysets read, so it imports nothing of the corpus's module).
* :mod:`~annotation.models.campaign`: campaigns of one or more corpora, the batches
  their work is dealt in, and the annotators' links.
* :mod:`~annotation.models.event`: the event log of judgments (every change a judge makes).
* :mod:`~annotation.models.job`: the task queue's record of one piece of long work.
* :mod:`~annotation.models.statistics`: the automatic statistics kept per preprocessing
  choice, and the grown reference pool's.
* :mod:`~annotation.models.external`: segment scores a lead imported (COMET, MetricX, …).
* :mod:`~annotation.models.span`: the error spans of ESA and MQM judgments, the judge's and
  those suggested to them.
* :mod:`~annotation.models.sidebyside`: side-by-side judging's setting and screens.

Each module names the others' models by string; the rest of the app imports from here.
"""

from annotation.models.campaign import (
    AnnotatorLink,
    Campaign,
    CampaignAnnotator,
    DealingRound,
    PairsOfInterest,
    Task,
)
from annotation.models.corpus import (
    CONTROL_RATE_DEFAULT,
    CONTROL_RATE_MAX,
    CONTROL_RATE_MIN,
    CONTROL_THRESHOLD_DEFAULT,
    Corpus,
    CorpusManager,
    CorpusQuerySet,
    Protocol,
    Sentence,
    Target,
    Translator,
)
from annotation.models.event import JudgmentEvent
from annotation.models.external import SCORES_DTYPE, ExternalMetric, ExternalScores
from annotation.models.job import Job, Release
from annotation.models.judgment import COUNTED, Judgment, JudgmentQuerySet, left_out
from annotation.models.sidebyside import Comparison, SideBySide
from annotation.models.span import ImportedSpans, Span
from annotation.models.statistics import CorpusStatistics, PoolStatistics
from annotation.models.subqueries import AmongIds, scalar, scalar_total
from annotation.users import User

__all__ = [
    "AmongIds",
    "AnnotatorLink",
    "Campaign",
    "CampaignAnnotator",
    "Comparison",
    "DealingRound",
    "PairsOfInterest",
    "CONTROL_RATE_DEFAULT",
    "CONTROL_RATE_MAX",
    "CONTROL_RATE_MIN",
    "CONTROL_THRESHOLD_DEFAULT",
    "COUNTED",
    "Corpus",
    "CorpusManager",
    "CorpusQuerySet",
    "CorpusStatistics",
    "ExternalMetric",
    "ExternalScores",
    "Job",
    "Release",
    "Judgment",
    "JudgmentEvent",
    "JudgmentQuerySet",
    "PoolStatistics",
    "Protocol",
    "SCORES_DTYPE",
    "Sentence",
    "ImportedSpans",
    "SideBySide",
    "Span",
    "Target",
    "Task",
    "Translator",
    "User",
    "left_out",
    "scalar",
    "scalar_total",
]
