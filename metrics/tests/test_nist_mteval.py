"""NIST equals NIST's own ``mteval-v13a.pl``, the Perl script itself run on the same texts
(``metrics/tests/mteval.py``): every system's score and every segment's, with two and
three references, case kept and lowercased.

The three references of the WMT21 case hold what made three WMT21 en-de systems differ
by 0.0009–0.0017 in an earlier comparison: outputs with the literal text ``&amp;``
(``Rodgers &amp; Hart``) where the references have ``&``. That comparison had written
the texts into the script's SGML escaped, as an XML writer does; the script's tokenizer
then unescapes once and reads ``& amp ;``, where the metric (like sacreBLEU's 13a) reads
the plain line ``&amp;`` as ``&``. Given the same text, the two agree to the last digits
(``test_the_escaped_wrapping_is_the_script_reading_other_text``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from metrics.nist import NIST
from metrics.tests.demo import REFERENCES, SYSTEMS, demo, demo_refs
from metrics.tests.mteval import escaped, run_mteval

#: The script's files print 15 significant digits; NIST is about 10.
TOLERANCE = 1e-11


def assert_equal_to_mteval(
    refs: list[tuple[str, ...]], systems: dict[str, list[str]], tmp: Path, lowercase: bool
) -> None:
    theirs = run_mteval(refs, systems, tmp, lowercase=lowercase)
    metric = NIST(lowercase=lowercase)
    prepared = metric.prepare_references(refs)
    for name, hyps in systems.items():
        stats = metric.segment_stats(hyps, prepared)
        ours = float(metric.score_from_stats(stats.sum(axis=0)))
        assert ours == pytest.approx(theirs.systems[name], abs=TOLERANCE), name
        np.testing.assert_allclose(
            metric.sentence_score_from_stats(stats), theirs.segments[name], atol=TOLERANCE
        )


@pytest.mark.parametrize("lowercase", [False, True], ids=["-c", "lowercased"])
def test_the_demo_corpus_with_two_references_equals_mteval(tmp_path: Path, lowercase: bool) -> None:
    systems = {name: list(demo()[name]) for name in SYSTEMS}
    assert_equal_to_mteval(demo_refs(*REFERENCES), systems, tmp_path, lowercase)


def wmt21_like() -> tuple[list[tuple[str, ...]], dict[str, list[str]]]:
    """Three references (the demo's two and a third written from a system's output: here
    empty, there a copy of the first) and four systems, one of them short enough for the
    brevity penalty; HTML entities as literal text, ``&`` and football scores ("0:4": the
    token ``0`` that mteval's Perl reads as false) sown through references and outputs."""
    data = demo()
    refs: list[tuple[str, ...]] = []
    for k, (first, second) in enumerate(demo_refs(*REFERENCES)):
        third = data["Online-W"][k] if k % 7 else ""
        third = first if k % 11 == 3 else third
        if k % 5 == 0:
            first, second = f"Rodgers & Hart {first}", f'"{second}" 0:4'
        refs.append((first, second, third))
    systems: dict[str, list[str]] = {}
    for s, name in enumerate(SYSTEMS[:4]):
        hyps = []
        for k, text in enumerate(data[name]):
            if k % 5 == 0 and s % 2 == 0:
                text = f"Rodgers &amp; Hart &quot;{text}&quot; 0:4 &lt;b&gt;"
            if s == 3:  # short: about 3/4 of its words
                words = text.split()
                text = " ".join(words[: max(1, 3 * len(words) // 4)])
            hyps.append(text)
        systems[name] = hyps
    return refs, systems


@pytest.mark.parametrize("lowercase", [False, True], ids=["-c", "lowercased"])
def test_three_references_with_the_wmt21_property_equal_mteval(
    tmp_path: Path, lowercase: bool
) -> None:
    refs, systems = wmt21_like()
    ours = NIST().corpus_score(systems[SYSTEMS[3]], refs)
    assert ours.stats is not None
    assert ours.stats[:, 0].sum() < ours.stats[:, 1].sum()  # the brevity penalty applies
    assert_equal_to_mteval(refs, systems, tmp_path, lowercase)


def test_the_escaped_wrapping_is_the_script_reading_other_text(tmp_path: Path) -> None:
    """Written as an XML writer writes it, the script reads ``&amp;`` literally: its
    figure is the metric's on the escaped text, and differs from the metric's on the
    plain text exactly for the systems that output an entity (the earlier comparison's
    three of twenty)."""
    refs, systems = wmt21_like()
    theirs = run_mteval(refs, systems, tmp_path, markup=escaped)
    on_escaped = {
        name: NIST().corpus_score(
            [escaped(h) for h in hyps], [tuple(map(escaped, r)) for r in refs]
        )
        for name, hyps in systems.items()
    }
    on_plain = {name: NIST().corpus_score(hyps, refs) for name, hyps in systems.items()}
    for name in systems:
        assert on_escaped[name].score == pytest.approx(theirs.systems[name], abs=TOLERANCE)
        with_entities = any("&amp;" in h for h in systems[name])
        differs = abs(on_plain[name].score - theirs.systems[name]) > 1e-6
        assert differs == with_entities, name
