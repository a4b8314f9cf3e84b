"""What a click does on the ESA / MQM page: mark, change or remove an error span, and
score the candidate 0–100 (ESA). Accept & next is the aWER page's
(:func:`annotation.judging.changes.judgment_accept_next`), which asks an ESA judgment
for its score.

Each function is a change as the aWER page's are (:mod:`annotation.judging.changes`):
the version the page showed is checked (a retry of the very request that made the
latest change is answered as saved), and the judge's spans after it are saved with its
event (:mod:`annotation.judging.span_rows`), so undo and redo restore them. The spans
are checked together before they are saved (:func:`metrics.error_spans.span_problems`,
with the corpus's taxonomy in MQM); a refusal says why (422).

A click names the span it acts on by what it is (:func:`span_token`: its characters,
severity, category and whether it is a ``[MISSING]`` marker), not by a row: a click
queued behind another means the same on the page that one produced, and one whose span
is gone is refused with :data:`~annotation.judging.errors.ERR_SPAN_GONE`.
"""

from __future__ import annotations

from datetime import datetime

from annotation.judging.errors import (
    ERR_ESA_RANGE,
    ERR_NO_SPAN_THERE,
    ERR_NOT_SPANS,
    ERR_SPAN,
    ERR_SPAN_GONE,
    ChangeRefused,
)
from annotation.judging.span_rows import in_order, judge_spans
from annotation.judging.stack import Click, change, to_apply
from annotation.models import Judgment, JudgmentEvent, User
from metrics.error_spans import MarkedSpan, span_json, span_problems, trimmed
from metrics.protocols import ESA_MAX, ESA_MIN


def span_token(span: MarkedSpan) -> str:
    """How the page names a span: ``start:end:severity:missing:category`` (missing 0 or
    1; the category last, which may hold a colon)."""
    return f"{span.start}:{span.end}:{span.severity}:{int(span.missing)}:{span.category}"


def span_of_token(token: str) -> MarkedSpan:
    """The span :func:`span_token` names, or a ``ValueError``."""
    parts = token.split(":", 4)
    if len(parts) != 5 or not (parts[0].isdigit() and parts[1].isdigit()):
        raise ValueError(f"no span is named {token!r}")
    start, end, severity, missing, category = parts
    return MarkedSpan(int(start), int(end), severity, category, missing == "1")


def span_label(span: MarkedSpan, candidate: str) -> str:
    """A span as a message quotes it: its text, or ``[MISSING]``."""
    return "[MISSING]" if span.missing else f"“{candidate[span.start : span.end]}”"


def _saved(click: Click, spans: list[MarkedSpan], new: int | None) -> Judgment:
    """Save ``spans`` as the judgment's, once they pass the rules; ``new``: the index of
    the span the click made, which a refusal calls "the new span"."""
    judgment = click.judgment
    corpus = judgment.target.sentence.corpus
    if not corpus.marks_spans:
        raise ChangeRefused(ERR_NOT_SPANS)
    problems = span_problems(spans, judgment.candidate_text, corpus.span_taxonomy)
    if problems:
        problem = problems[0]
        if new is not None:
            problem = problem.replace(f"span {new + 1}:", "the new span:", 1)
        raise ChangeRefused(ERR_SPAN.format(problem=problem))
    return change(click, spans=[span_json(s) for s in in_order(spans)])


def judgment_mark_span(
    *, judgment: Judgment, user: User, version: int, span: MarkedSpan, at: datetime | None = None
) -> Judgment:
    """Mark ``span`` as an error (its blanks at the ends trimmed:
    :func:`metrics.error_spans.trimmed`). Marked over exactly one of the judge's spans
    (in MQM: one of its category), it takes that span's place: this is how a judge
    resizes a span, or gives it another severity, by selecting it anew."""
    click = Click(
        judgment, user, version, JudgmentEvent.Kind.MARK_SPAN, {"mark": span_token(span)}, at
    )
    if not to_apply(click):
        return judgment
    spans = judge_spans(judgment)
    new = trimmed(span, judgment.candidate_text)
    under = _under(spans, new, judgment.target.sentence.corpus.span_taxonomy is not None)
    if len(under) == 1:
        spans.remove(under[0])
    return _saved(click, [*spans, new], len(spans))


def _under(spans: list[MarkedSpan], span: MarkedSpan, mqm: bool) -> list[MarkedSpan]:
    """The spans ``span`` lies over: those sharing a character with it (a ``[MISSING]``
    marker: the other markers), in MQM of its category only (``mqm``)."""
    return [
        s
        for s in spans
        if (not mqm or s.category == span.category)
        and (
            s.missing and span.missing
            if s.missing or span.missing
            else s.start < span.end and span.start < s.end
        )
    ]


def judgment_change_span(
    *,
    judgment: Judgment,
    user: User,
    version: int,
    span: MarkedSpan,
    to: MarkedSpan,
    at: datetime | None = None,
) -> Judgment:
    """Make ``span`` ``to``: resized, moved, another severity or category."""
    params = {"change": span_token(span), "to": span_token(to)}
    click = Click(judgment, user, version, JudgmentEvent.Kind.MARK_SPAN, params, at)
    if not to_apply(click):
        return judgment
    spans = _without(judgment, span)
    return _saved(click, [*spans, trimmed(to, judgment.candidate_text)], len(spans))


def judgment_remove_span(
    *,
    judgment: Judgment,
    user: User,
    version: int,
    span: MarkedSpan,
    exact: bool = True,
    at: datetime | None = None,
) -> Judgment:
    """Remove ``span``: not an error after all. Not ``exact``: the first of the judge's
    spans over ``span``'s characters (a selection, the keys' cursor), whatever its
    severity and category."""
    params = {"remove": span_token(span), "exact": exact}
    click = Click(judgment, user, version, JudgmentEvent.Kind.MARK_SPAN, params, at)
    if not to_apply(click):
        return judgment
    if not exact:
        under = _under(judge_spans(judgment), span, mqm=False)
        if not under:
            label = span_label(span, judgment.candidate_text)
            raise ChangeRefused(ERR_NO_SPAN_THERE.format(label=label))
        span = under[0]
    return _saved(click, _without(judgment, span), None)


def _without(judgment: Judgment, span: MarkedSpan) -> list[MarkedSpan]:
    """The judge's spans but ``span``, refused where it has none such (gone already)."""
    spans = judge_spans(judgment)
    if span not in spans:
        label = span_label(span, judgment.candidate_text)
        raise ChangeRefused(ERR_SPAN_GONE.format(label=label))
    spans.remove(span)
    return spans


def judgment_set_esa_score(
    *, judgment: Judgment, user: User, version: int, score: int, at: datetime | None = None
) -> Judgment:
    """Score the candidate on ESA's 0–100 scale (0 no meaning kept … 100 perfect)."""
    if isinstance(score, bool) or not isinstance(score, int) or not ESA_MIN <= score <= ESA_MAX:
        raise ChangeRefused(ERR_ESA_RANGE.format(value=score))
    click = Click(judgment, user, version, JudgmentEvent.Kind.SET_ESA, {"esa": score}, at)
    if not to_apply(click):
        return judgment
    if not judgment.target.sentence.corpus.scores_esa:
        raise ChangeRefused(ERR_NOT_SPANS)
    return change(click, esa_score=score)
