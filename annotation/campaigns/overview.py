"""What the lead sees of campaigns: a campaign's page (its corpora with their languages,
method, size, judges' progress, control items and pending jobs; its annotators with
their progress; the imports meant for it that failed) and the lead's home, its corpora
grouped by campaign.

Read in a fixed number of queries whatever the number of corpora, campaigns, annotators
or judgments: the corpora with their progress (``Corpus.objects.with_judges_progress``,
the rule the corpus's own campaign page and home share) and their side-by-side setting
(joined: :func:`annotation.sidebyside.campaign.campaign_reach` reads it), the assignments, the
annotators' progress (where every judge judges every candidate, their done judgments
per corpus: one grouped count, a row per pair; where the work is split, their batches:
:func:`annotation.campaigns.batch_progress.annotator_batches`, two), the pending jobs
of every corpus (:func:`annotation.jobs.pending_by_corpus`) and the failed imports
(:func:`annotation.uploads.failed_imports`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, cast

from django.db.models import Count

from annotation.campaigns.batch_progress import AnnotatorBatches, annotator_batches
from annotation.jobs import Job, pending_by_corpus
from annotation.models import Campaign, Corpus, Judgment, Protocol, Task
from annotation.text import corpus_languages
from annotation.uploads import failed_imports


@dataclass(frozen=True)
class CorpusRow:
    """One corpus of a campaign as its page lists it (``corpus`` read with
    ``with_judges_progress``), with its pending jobs (a failed one with its Retry)."""

    corpus: Corpus
    jobs: list[Job] = field(default_factory=list)

    @property
    def languages(self) -> str:
        """ "zh → en" where the file names its languages (``srclang``, ``trglang``, …),
        "" where it names neither."""
        source, target = corpus_languages(self.corpus)
        if not source.lang and not target.lang:
            return ""
        return f"{source.lang or '?'} → {target.lang or '?'}"

    @property
    def method(self) -> str:
        """The judging protocol (aWER's new reference with SSER's score, ESA, ESA with
        pre-filled spans or MQM), and IER's information items where the lead turned them
        on for the aWER page."""
        ier = self.corpus.ier_enabled and self.corpus.protocol == Protocol.AWER
        return self.corpus.get_protocol_display() + (" + IER" if ier else "")


@dataclass(frozen=True)
class Annotator:
    """One annotator of the campaign (a judge of one of its corpora): the corpora they
    judge and their progress. Where every judge judges every candidate: their done
    judgments in those corpora (what every figure counts) and their work, every
    candidate. Where the work is split, their ``batches``, and ``done`` the items they
    judged in batches (no work to do: batches are dealt on demand)."""

    user_id: int
    username: str
    is_active: bool
    corpora: tuple[str, ...]
    done: int
    to_do: int | None
    batches: AnnotatorBatches | None = None

    @property
    def share(self) -> float | None:
        return self.done / self.to_do if self.to_do else None

    @property
    def corpora_text(self) -> str:
        """The corpora they judge, in one line (one cell, however many corpora)."""
        return ", ".join(self.corpora)


@dataclass(frozen=True)
class CampaignOverview:
    campaign: Campaign
    corpora: tuple[CorpusRow, ...]
    annotators: tuple[Annotator, ...]
    failed_imports: list[Job]

    @property
    def done(self) -> int:
        return sum(int(cast(Any, r.corpus).n_judges_done) for r in self.corpora)

    @property
    def to_do(self) -> int:
        return sum(int(cast(Any, r.corpus).n_judges_assigned) for r in self.corpora)

    @property
    def sentences(self) -> int:
        return sum(r.corpus.n_sentences for r in self.corpora)

    @property
    def batches(self) -> dict[str, int]:
        """The corpora's batches (``with_batches``) summed: ``total``, ``dealt``,
        ``finished`` and ``returned``."""
        counted = {"total": "n_batches", "dealt": "n_batches_dealt"}
        counted |= {"finished": "n_batches_finished", "returned": "n_batches_returned"}
        return {
            name: sum(int(getattr(r.corpus, column)) for r in self.corpora)
            for name, column in counted.items()
        }

    @property
    def candidates(self) -> int:
        return sum(r.corpus.n_candidates for r in self.corpora)


def _annotators(campaign: Campaign, corpora: Iterable[Corpus]) -> tuple[Annotator, ...]:
    """The judges of the campaign's corpora, by name, with their progress in the corpora
    they judge (three queries at most: the assignments, and the module's)."""
    names = {c.pk: c.name for c in corpora}
    assigned = (
        Corpus.judges.through.objects.filter(corpus__campaign=campaign, corpus__ready=True)
        .order_by("user__username", "corpus__name")
        .values_list("user_id", "user__username", "user__is_active", "corpus_id", named=True)
    )
    people: dict[int, Any] = {}  # user id → their first assignment row (name, active)
    judged: dict[int, list[int]] = defaultdict(list)  # user id → the corpora they judge
    for a in assigned:
        people.setdefault(a.user_id, a)
        judged[a.user_id].append(a.corpus_id)
    progress = (
        _in_batches(campaign)
        if campaign.splits_work
        else _in_every_candidate(campaign, corpora, judged)
    )
    return tuple(
        Annotator(
            user_id=user,
            username=a.user__username,
            is_active=a.user__is_active,
            corpora=tuple(names[c] for c in judged[user]),
            **progress(user),
        )
        for user, a in people.items()
    )


def _in_batches(campaign: Campaign) -> Callable[[int], dict[str, Any]]:
    """Each annotator's progress where the work is split: their batches, and the items
    they judged in them (:func:`~annotation.campaigns.batch_progress.annotator_batches`)."""
    batches = annotator_batches(Task.objects.filter(corpus__campaign_id=campaign.pk))

    def progress(user: int) -> dict[str, Any]:
        theirs = batches.get(user, AnnotatorBatches())
        return {"done": theirs.items_done, "to_do": None, "batches": theirs}

    return progress


def _in_every_candidate(
    campaign: Campaign, corpora: Iterable[Corpus], judged: dict[int, list[int]]
) -> Callable[[int], dict[str, Any]]:
    """Each annotator's progress where every judge judges every candidate: their done
    judgments in the corpora they judge (counted per judge and corpus, a row per pair
    however many judgments), of every candidate of those corpora."""
    candidates = {c.pk: c.n_candidates for c in corpora}
    pairs = (
        Judgment.objects.counted()
        .filter(target__translator__corpus__campaign=campaign)
        .values_list("evaluator_id", "target__translator__corpus_id")
        .annotate(n=Count("pk"))
        .order_by()
    )
    done = {(user, corpus): n for user, corpus, n in pairs}

    def progress(user: int) -> dict[str, Any]:
        return {
            "done": sum(done.get((user, c), 0) for c in judged[user]),
            "to_do": sum(candidates[c] for c in judged[user]),
        }

    return progress


def campaign_overview(campaign: Campaign) -> CampaignOverview:
    """``campaign`` as its page shows it (see the module: five queries)."""
    of_campaign = Corpus.objects.filter(campaign=campaign)
    corpora = list(
        of_campaign.with_judges_progress().select_related("side_by_side").order_by("name")
    )
    jobs = pending_by_corpus(of_campaign)
    return CampaignOverview(
        campaign=campaign,
        corpora=tuple(CorpusRow(c, jobs.get(c.pk, [])) for c in corpora),
        annotators=_annotators(campaign, corpora),
        failed_imports=failed_imports(campaign=campaign),
    )


@dataclass(frozen=True)
class CampaignGroup:
    """A campaign on the lead's home: its corpora's rows (whatever the view lists per
    corpus), in the order given."""

    campaign: Campaign
    rows: list[Any]


def campaign_groups(rows: Iterable[Any]) -> list[CampaignGroup]:
    """``rows`` (one per corpus, each with its ``corpus``) grouped under their campaigns,
    campaigns by name (one query). A campaign with no corpus listed shows as an empty
    group if it is a lead's (one made for a corpus still being imported stays out of
    sight, as that corpus does)."""
    grouped: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        grouped[row.corpus.campaign_id].append(row)
    return [
        CampaignGroup(campaign, grouped[campaign.pk])
        for campaign in Campaign.objects.order_by("name")
        if grouped[campaign.pk] or not campaign.made_for_corpus
    ]
