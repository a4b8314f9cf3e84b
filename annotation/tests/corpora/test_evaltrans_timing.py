"""A judgment's effort in evalTrans (annotation/corpora/evaltrans/timing.py): the
``activeSeconds``, ``ierSeconds``, ``ierClicks``, ``firstSeen`` and ``lastChanged``
attributes of its ``<eval>``, read, written and refused. No database."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from annotation.corpora.evaltrans import CorpusHeader, Timing
from annotation.corpora.evaltrans.timing import (
    ERR_CLICKS,
    ERR_IER_OVER_ACTIVE,
    ERR_SECONDS,
    ERR_TIME,
    ERR_TIME_ORDER,
)
from annotation.tests.factories import (
    doc,
    ev,
    judged_eval,
    parse,
    refusal,
    sentences_of,
    written,
)

TIMED = ev(
    'translator="sys" evaluator="JM" sser="8" activeSeconds="74.25" ierSeconds="12.5" '
    'ierClicks="3" firstSeen="2026-03-02T10:15:04.12+01:00" lastChanged="2026-03-02T09:16:31Z"'
)


def test_the_effort_attributes_are_read_into_the_judgments_timing() -> None:
    timing = judged_eval(doc(TIMED)).timing

    assert timing == Timing(
        active_seconds=74.25,
        ier_seconds=12.5,
        ier_clicks=3,
        first_seen=datetime(2026, 3, 2, 9, 15, 4, 120000, tzinfo=UTC),
        last_changed=datetime(2026, 3, 2, 9, 16, 31, tzinfo=UTC),
    )
    assert judged_eval(doc(TIMED)).extra_attrs == ()


def test_a_file_without_them_has_no_timing() -> None:
    assert judged_eval(doc(ev('translator="sys" evaluator="JM" sser="8"'))).timing is None


def test_timing_alone_makes_an_eval_a_judgment() -> None:
    assert judged_eval(doc(ev('translator="sys" activeSeconds="3"'))).judged


def test_they_are_written_in_utc_with_microseconds_and_read_back_the_same() -> None:
    items = parse(doc(TIMED))
    header, sentences = items[0], sentences_of(items)
    assert isinstance(header, CorpusHeader)

    first = written(header, sentences)

    assert (
        b'activeSeconds="74.25" ierSeconds="12.5" ierClicks="3" '
        b'firstSeen="2026-03-02T09:15:04.120000Z" lastChanged="2026-03-02T09:16:31.000000Z"'
    ) in first
    again = parse(first)
    assert written(again[0], sentences_of(again)) == first  # type: ignore[arg-type]


def test_seconds_keep_every_digit_a_float_has() -> None:
    """The shortest text that reads back to the same float: sums of microsecond gaps
    export → import → export unchanged."""
    seconds = 0.1 + 0.2 + 17.000001
    items = parse(doc(TIMED))
    (sentence,) = sentences_of(items)
    judged = sentence.evals[-1]
    timing = Timing(active_seconds=seconds)
    changed = replace(sentence, evals=(*sentence.evals[:-1], replace(judged, timing=timing)))

    text = written(items[0], [changed])  # type: ignore[arg-type]

    assert f'activeSeconds="{seconds!r}"'.encode() in text
    assert b"ierSeconds" not in text
    assert b"firstSeen" not in text
    assert judged_eval(text).timing == timing


@pytest.mark.parametrize(
    "attrs, reason",
    [
        ('activeSeconds="-3"', ERR_SECONDS.format(name="activeSeconds", value="-3")),
        ('activeSeconds="nan"', ERR_SECONDS.format(name="activeSeconds", value="nan")),
        ('activeSeconds="1e400"', ERR_SECONDS.format(name="activeSeconds", value="1e400")),
        ('ierSeconds="ten"', ERR_SECONDS.format(name="ierSeconds", value="ten")),
        ('ierClicks="2.5"', ERR_CLICKS.format(value="2.5")),
        ('ierClicks="9999999999"', ERR_CLICKS.format(value="9999999999")),
        (
            'activeSeconds="5" ierSeconds="6"',
            ERR_IER_OVER_ACTIVE.format(ier="6", active="5"),
        ),
        (
            'firstSeen="2026-03-02T09:15:04"',
            ERR_TIME.format(name="firstSeen", value="2026-03-02T09:15:04"),
        ),
        ('lastChanged="yesterday"', ERR_TIME.format(name="lastChanged", value="yesterday")),
        (
            'firstSeen="2026-03-02T10:00:00Z" lastChanged="2026-03-02T09:00:00Z"',
            ERR_TIME_ORDER.format(last="2026-03-02T09:00:00Z", first="2026-03-02T10:00:00Z"),
        ),
    ],
)
def test_a_bad_effort_attribute_is_refused_with_its_line_and_reason(
    attrs: str, reason: str
) -> None:
    assert refusal(doc(ev(f'translator="sys" evaluator="JM" {attrs}'))) == f"t.xml line 6: {reason}"
