"""The campaign page's effort per protocol: how many seconds a segment and a span cost
the judges of each protocol the campaign's corpora use (aWER, ESA, ESA with pre-filled
spans, MQM), from their recorded active time (:mod:`annotation.judging.active_time`).

ESA's and ESA^AI's papers report time per segment and per error span (Kocmi et al.
2024: 34 s a segment against 49 s for MQM; Zouhar et al. 2025: 71 → 31 s per error span
with pre-filled spans); the figures here are read the same way, so a lead compares their
campaign with them:

* **seconds per segment**: the active seconds of the done judgments (control items
  left out, as every figure leaves them) over their number;
* **seconds per span**: the same seconds over the spans those judgments hold, the
  papers' "time per error span". A span is a judge's error span in ESA and MQM (a
  suggestion the judge did not keep is not one), and in aWER an edit operation of the
  judge's new reference (aWER's spans are its alignment's operations);
* **seconds marking a span** (ESA, MQM): the judge's active time on the spans
  themselves (:attr:`annotation.models.span.Span.seconds`: the gaps before the changes
  that marked or changed each), over their number — the part of a segment's time the
  spans took, where the rest went to reading and scoring.

Two queries whatever the size of the campaign (the judgments grouped by protocol, the
spans grouped by protocol), and one for the protocols of its corpora unless the caller
has them. Both read every done judgment of the campaign, so the page remembers their
figures until a judgment of one of its corpora changes (:func:`remembered_protocol_effort`):
a later view reads none.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Sum
from django.db.models.functions import Coalesce

from annotation.models import Campaign, Corpus, Judgment, Protocol, Span
from annotation.statistics import remembered_across

#: Where the protocol is grouped from, on a judgment and on a span.
_PROTOCOL = "target__translator__corpus__protocol"


@dataclass(frozen=True)
class ProtocolEffort:
    """The effort of one protocol's done judgments in a campaign (module doc)."""

    protocol: str
    judgments: int
    seconds: float
    spans: int
    span_seconds: float

    @property
    def label(self) -> str:
        return str(Protocol(self.protocol).label)

    @property
    def hours(self) -> float:
        return self.seconds / 3600

    @property
    def marks_spans(self) -> bool:
        """Whether the judges mark spans themselves (ESA, MQM), so the time spent on
        the spans is recorded apart."""
        return self.protocol != Protocol.AWER

    @property
    def seconds_per_segment(self) -> float | None:
        return self.seconds / self.judgments if self.judgments else None

    @property
    def seconds_per_span(self) -> float | None:
        return self.seconds / self.spans if self.spans else None

    @property
    def marking_seconds_per_span(self) -> float | None:
        return self.span_seconds / self.spans if self.spans and self.marks_spans else None

    def as_json(self) -> dict[str, Any]:
        return {
            "protocol": self.protocol,
            "judgments": self.judgments,
            "seconds": self.seconds,
            "spans": self.spans,
            "seconds_per_segment": self.seconds_per_segment,
            "seconds_per_span": self.seconds_per_span,
            "marking_seconds_per_span": self.marking_seconds_per_span,
        }


def remembered_protocol_effort(
    campaign: Campaign, corpora: Iterable[Corpus]
) -> tuple[ProtocolEffort, ...]:
    """:func:`campaign_protocol_effort` of the campaign whose corpora (as the page read
    them, with their stamps) are ``corpora``, remembered under their judgments stamps,
    which every change of a done judgment, its active time or its spans moves
    (:mod:`annotation.changes`)."""
    corpora = list(corpora)
    return remembered_across(
        corpora,
        ("protocol-effort", campaign.pk),
        lambda: campaign_protocol_effort(campaign, protocols=[c.protocol for c in corpora]),
    )


def campaign_protocol_effort(
    campaign: Campaign, *, protocols: Iterable[str] | None = None
) -> tuple[ProtocolEffort, ...]:
    """The effort of each protocol the campaign's corpora use (``protocols``, where the
    caller has read its corpora already), in the protocols' order; one nobody has
    judged yet has zeros and no figure."""
    if protocols is None:
        protocols = Corpus.objects.filter(campaign=campaign).values_list("protocol", flat=True)
    used = set(protocols)
    done = Judgment.objects.counted().filter(target__translator__corpus__campaign=campaign)
    judgments = {
        row[_PROTOCOL]: row
        for row in done.order_by()
        .values(_PROTOCOL)
        .annotate(
            n=Count("pk"),
            seconds=Coalesce(Sum("active_seconds"), 0.0),
            edits=Coalesce(Sum("edits"), 0),
        )
    }
    spans = {
        row[f"judgment__{_PROTOCOL}"]: row
        for row in Span.objects.filter(origin=Span.Origin.JUDGE, judgment__in=done)
        .order_by()
        .values(f"judgment__{_PROTOCOL}")
        .annotate(n=Count("pk"), seconds=Coalesce(Sum("seconds"), 0.0))
    }
    out = []
    for protocol in Protocol.values:
        if protocol not in used:
            continue
        j = judgments.get(protocol, {})
        s = spans.get(protocol, {})
        out.append(
            ProtocolEffort(
                protocol=protocol,
                judgments=j.get("n", 0),
                seconds=j.get("seconds", 0.0),
                spans=j.get("edits", 0) if protocol == Protocol.AWER else s.get("n", 0),
                span_seconds=s.get("seconds", 0.0),
            )
        )
    return tuple(out)
