"""Seed 001 Table 3 on the dashboard: the minutes of human work per system and each
judge's pace, from the judgments' active time.

The pace is shown as every page shows it: active seconds per candidate
(:data:`annotation.pace.PACE_LABEL`, the judge's header's own figure), so a lead and a
judge read one number in one unit; :func:`~annotation.pace.sentences_per_hour` (seed 001
Table 3's speed) stays for the JSON and the tests that read it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from annotation.models import Protocol
from annotation.pace import seconds_per_candidate, sentences_per_hour
from annotation.statistics import JudgmentRow

#: What the one pass over a candidate is, in each protocol: the human column's heading.
#: Every protocol's page records its judgments' active time alike, so the column's
#: figures are the same measure whatever the protocol; only what the judge did differs.
PASS_LABELS = {
    Protocol.AWER: "aWER/aSER + SSER (one pass)",
    Protocol.ESA: "ESA: error spans + 0–100 score (one pass)",
    Protocol.ESA_PREFILL: "ESA: pre-filled spans corrected + 0–100 score (one pass)",
    Protocol.MQM: "MQM: error spans with categories (one pass)",
}


@dataclass(frozen=True)
class EffortRow:
    """Seed 001 Table 3, one system: minutes of the automatic metrics (0: no human work
    per system) and of the human pass. The judge's page records aWER and SSER in one
    pass over a candidate, so their time is one figure, labelled "aWER/aSER + SSER".
    IER (:mod:`annotation.ier`), where a lead enabled it, is done on the same page: the
    time of its changes (``ier_seconds``, gaps before IER events, as every active time is
    measured) and their number are its own column, and the pass keeps the rest."""

    system: str
    judgments: int
    seconds: float
    ier_seconds: float = 0.0
    ier_clicks: int = 0

    @property
    def minutes(self) -> float:
        """All the human time of the system's judgments."""
        return self.seconds / 60

    @property
    def pass_minutes(self) -> float:
        """The aWER/aSER + SSER pass: the human time but IER's."""
        return (self.seconds - self.ier_seconds) / 60

    @property
    def ier_minutes(self) -> float:
        return self.ier_seconds / 60

    @property
    def seconds_per_sentence(self) -> float | None:
        return seconds_per_candidate(self.judgments, self.seconds)


@dataclass(frozen=True)
class JudgeEffort:
    name: str
    judgments: int
    seconds: float

    @property
    def hours(self) -> float:
        return self.seconds / 3600

    @property
    def per_hour(self) -> float | None:
        return sentences_per_hour(self.judgments, self.seconds)

    @property
    def pace(self) -> float | None:
        return seconds_per_candidate(self.judgments, self.seconds)


@dataclass(frozen=True)
class Effort:
    systems: tuple[EffortRow, ...]
    judges: tuple[JudgeEffort, ...]
    #: The corpus's protocol, which says what the one pass was (:data:`PASS_LABELS`).
    protocol: str = Protocol.AWER

    @property
    def pass_label(self) -> str:
        return PASS_LABELS[Protocol(self.protocol)]

    @property
    def total_minutes(self) -> float:
        return sum(r.minutes for r in self.systems)

    @property
    def total_judgments(self) -> int:
        return sum(r.judgments for r in self.systems)

    @property
    def total_pass_minutes(self) -> float:
        return sum(r.pass_minutes for r in self.systems)

    @property
    def total_ier_minutes(self) -> float:
        return sum(r.ier_minutes for r in self.systems)

    @property
    def total_ier_clicks(self) -> int:
        return sum(r.ier_clicks for r in self.systems)

    @property
    def has_ier(self) -> bool:
        """Whether any judgment had an IER change: the IER column is shown."""
        return any(r.ier_clicks for r in self.systems)


#: A system's (or a judge's) effort as a caller keeps it by the version of its rows,
#: else computed (the callable given) and kept: after a click, the dashboard sums the
#: judged system's and the clicking judge's rows alone.
Kept = Callable[[str, Callable[[], "EffortRow"]], "EffortRow"]
KeptJudge = Callable[[str, Callable[[], "JudgeEffort"]], "JudgeEffort"]


def effort(
    rows: Sequence[JudgmentRow],
    systems: Sequence[str],
    protocol: str = Protocol.AWER,
    *,
    kept: tuple[Kept, KeptJudge] | None = None,
) -> Effort:
    """Minutes per system (Σ active seconds of its done judgments / 60, IER's apart) and
    sentences per hour per judge (done judgments / active hours), of a corpus judged
    under ``protocol``. ``kept``: each system's and each judge's as kept (:data:`Kept`),
    the same figures to the bit (each sums its own rows, in their order, as one pass over
    every row does)."""
    if kept is not None:
        per_system, per_judge, of = kept[0], kept[1], _RowsOf(rows)
        judges = sorted({r.evaluator for r in rows})
        return Effort(
            systems=tuple(per_system(s, partial(_system_effort, of, s)) for s in systems),
            judges=tuple(per_judge(name, partial(_judge_effort, of, name)) for name in judges),
            protocol=protocol,
        )
    seconds: dict[str, float] = defaultdict(float)
    ier_seconds: dict[str, float] = defaultdict(float)
    ier_clicks: dict[str, int] = defaultdict(int)
    count: dict[str, int] = defaultdict(int)
    judge_seconds: dict[str, float] = defaultdict(float)
    judge_count: dict[str, int] = defaultdict(int)
    for r in rows:
        seconds[r.system] += r.active_seconds
        ier_seconds[r.system] += r.ier_seconds
        ier_clicks[r.system] += r.ier_clicks
        count[r.system] += 1
        judge_seconds[r.evaluator] += r.active_seconds
        judge_count[r.evaluator] += 1
    return Effort(
        systems=tuple(
            EffortRow(s, count[s], seconds[s], ier_seconds[s], ier_clicks[s]) for s in systems
        ),
        judges=tuple(
            JudgeEffort(name, judge_count[name], judge_seconds[name])
            for name in sorted(judge_count)
        ),
        protocol=protocol,
    )


class _RowsOf:
    """Each system's and each judge's rows, in their order: found by a pass over every
    row for the first two asked (a view after a click asks for one system's and one
    judge's), all grouped in one pass beyond (a first view asks for every one)."""

    def __init__(self, rows: Sequence[JudgmentRow]) -> None:
        self.rows, self.asked = rows, 0
        self.grouped: tuple[dict[str, list[JudgmentRow]], dict[str, list[JudgmentRow]]] | None
        self.grouped = None

    def system(self, name: str) -> Sequence[JudgmentRow]:
        return self._of(0, name)

    def judge(self, name: str) -> Sequence[JudgmentRow]:
        return self._of(1, name)

    def _of(self, by: int, name: str) -> Sequence[JudgmentRow]:
        self.asked += 1
        if self.grouped is None and self.asked > 2:
            systems: dict[str, list[JudgmentRow]] = defaultdict(list)
            judges: dict[str, list[JudgmentRow]] = defaultdict(list)
            for r in self.rows:
                systems[r.system].append(r)
                judges[r.evaluator].append(r)
            self.grouped = systems, judges
        if self.grouped is not None:
            return self.grouped[by].get(name, [])
        if by == 0:
            return [r for r in self.rows if r.system == name]
        return [r for r in self.rows if r.evaluator == name]


def _system_effort(of: _RowsOf, system: str) -> EffortRow:
    seconds, ier_seconds, ier_clicks, count = 0.0, 0.0, 0, 0
    for r in of.system(system):
        seconds += r.active_seconds
        ier_seconds += r.ier_seconds
        ier_clicks += r.ier_clicks
        count += 1
    return EffortRow(system, count, seconds, ier_seconds, ier_clicks)


def _judge_effort(of: _RowsOf, name: str) -> JudgeEffort:
    seconds, count = 0.0, 0
    for r in of.judge(name):
        seconds += r.active_seconds
        count += 1
    return JudgeEffort(name, count, seconds)
