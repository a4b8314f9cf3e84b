"""TER with shifts against sacreBLEU 2.6's ``TER()`` (its reference implementation), on
the demo corpus and on generated multi-reference data, and hand cases for each step."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from sacrebleu.metrics import TER as SacreTER

from metrics import human
from metrics.__main__ import main
from metrics.corpus import score_corpus
from metrics.registry import build_metric
from metrics.ter import TER, _floor, ter_edits, ter_row, ter_rows
from metrics.ter_beam import answer_all
from metrics.ter_search import edits_search
from metrics.tests.demo import README_REFS, README_SYS, REFERENCES, SYSTEMS, demo, demo_refs


def sacre_ter(hyps: list[str], refs: list[tuple[str, ...]]) -> tuple[list[list[float]], float]:
    """sacreBLEU's segment statistics (edits, mean reference length) and its corpus score,
    each computed once as its ``corpus_score`` computes them: the corpus's statistics,
    then the score of their sum (its search is plain Python: seconds on the generated
    data, which the tests spent twice)."""
    metric = SacreTER()
    streams = [list(s) for s in zip(*refs, strict=True)]
    stats = metric._extract_corpus_statistics(hyps, streams)
    rows = [[float(x) for x in row] for row in stats]
    return rows, float(metric._aggregate_and_compute(stats).score)


def sacre_rows(hyps: list[str], refs: list[tuple[str, ...]]) -> list[list[float]]:
    return sacre_ter(hyps, refs)[0]


@pytest.mark.parametrize("references", [REFERENCES[:1], REFERENCES])
@pytest.mark.parametrize("system", SYSTEMS)
def test_every_demo_system_scores_as_sacrebleu(system: str, references: tuple[str, ...]) -> None:
    refs = demo_refs(*references)
    hyps = list(demo()[system])

    ours = TER().corpus_score(hyps, refs)
    rows, theirs = sacre_ter(hyps, refs)

    assert ours.score == pytest.approx(theirs, abs=1e-9)
    assert ours.stats is not None
    assert ours.stats.tolist() == rows


def test_the_readme_example_scores_as_sacrebleu() -> None:
    streams = [list(s) for s in zip(*README_REFS, strict=True)]
    ours = TER().corpus_score(README_SYS, README_REFS).score
    assert ours == pytest.approx(SacreTER().corpus_score(README_SYS, streams).score, abs=1e-9)


def _edited(rng: random.Random, words: list[str], vocab: list[str]) -> str:
    w = list(words)
    for _ in range(rng.randint(0, 6)):
        op = rng.random()
        if op < 0.25 and w:
            w.pop(rng.randrange(len(w)))
        elif op < 0.5:
            w.insert(rng.randint(0, len(w)), rng.choice(vocab))
        elif op < 0.8 and len(w) > 3:  # move a block: what shifts are for
            i, n = rng.randrange(len(w) - 2), rng.randint(1, 4)
            block = w[i : i + n]
            del w[i : i + n]
            j = rng.randint(0, len(w))
            w[j:j] = block
        elif w:
            w[rng.randrange(len(w))] = rng.choice(vocab)
    return " ".join(w)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_generated_data_with_one_to_four_references_scores_as_sacrebleu(seed: int) -> None:
    """Repeated words (a small vocabulary), mixed case, empty lines and sentences long
    enough for the shift distance, the beam and the candidate bound to matter."""
    rng = random.Random(seed)
    vocab = ["a", "b", "c", "d", "e", "f", "g", "The", "the", ",", ".", "dog", "Man", "man"]
    n_refs = seed + 1
    refs, hyps = [], []
    for _ in range(60):
        base = [rng.choice(vocab) for _ in range(rng.choice([0, 1, 4, 12, 30, 60, 90]))]
        refs.append(tuple(_edited(rng, base, vocab) for _ in range(n_refs)))
        hyps.append(_edited(rng, base, vocab) if rng.random() < 0.85 else "x y z " * 40)

    ours = TER().corpus_score(hyps, refs)
    rows, theirs = sacre_ter(hyps, refs)

    assert ours.stats is not None
    assert ours.stats.tolist() == rows
    assert ours.score == pytest.approx(theirs, abs=0.01)


@pytest.mark.parametrize(
    "hyp, ref, edits",
    [
        ([1, 2, 3, 4], [1, 2, 3, 4], 0),
        ([1, 2, 9], [1, 2, 3], 1),  # one substitution
        ([3, 4, 1, 2], [1, 2, 3, 4], 1),  # one shift of a block of two
        ([2, 1, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6], 1),  # two words swapped: one shift
        ([], [1, 2, 3], 3),  # all insertions
        ([1, 2], [], 2),  # an empty reference: every word is an edit
    ],
)
def test_hand_cases(hyp: list[int], ref: list[int], edits: int) -> None:
    assert ter_edits(hyp, ref) == edits
    words = lambda ids: " ".join(f"w{i}" for i in ids)  # noqa: E731
    assert sacre_rows([words(hyp)], [(words(ref),)])[0][0] == edits


def test_case_is_ignored_and_the_length_is_the_average_reference_length() -> None:
    stats = TER().segment_stats(["THE Cat"], TER().prepare_references([("the cat", "a cat sat")]))
    assert stats.tolist() == [[0.0, 2.5]]


def test_the_signature_records_every_choice() -> None:
    assert (
        TER()
        .signature([("a",), ("b",)])
        .startswith(
            "nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|shift:10|dist:50|beam:25|version:"
        )
    )
    assert TER(case_sensitive=True).signature([("a", "b")]).startswith("nrefs:2|case:mixed|")


def test_score_corpus_gives_ters_own_rows_beside_the_other_metrics() -> None:
    refs = demo_refs()
    systems = {s: list(demo()[s]) for s in SYSTEMS}
    got = score_corpus(refs, systems, [build_metric("wer"), build_metric("ter")])
    for s, hyps in systems.items():
        alone = TER().corpus_score(hyps, refs)
        assert got[s]["ter"].score == alone.score
        assert got[s]["ter"].signature == alone.signature
        assert got[s]["wer"].score == build_metric("wer").corpus_score(hyps, refs).score
    only = score_corpus(refs, systems, [build_metric("ter")])
    assert {s: f["ter"].score for s, f in only.items()} == {
        s: f["ter"].score for s, f in got.items()
    }


def test_a_prepared_reference_set_of_another_configuration_is_refused() -> None:
    prepared = TER(case_sensitive=True).prepare_references([("a",)])
    with pytest.raises(ValueError, match="prepared for"):
        TER().segment_stats(["a"], prepared)


def test_the_command_line_scores_ter(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("the cat sat on the mat\n", encoding="utf-8")
    hyp.write_text("On the mat the cat sat\n", encoding="utf-8")

    assert main(["--ref", str(ref), "--hyp", str(hyp), "--metric", "ter", "--json"]) == 0
    figure = json.loads(capsys.readouterr().out)[str(hyp)]["ter"]
    assert figure["score"] == pytest.approx(100 / 6)  # one shift, six reference words
    assert figure["signature"].startswith("nrefs:1|case:lc|tok:tercom|")


@pytest.mark.parametrize(
    "target, new_ref, row",
    [
        ("the cat sat", "the cat sat", (0.0, 3.0)),
        ("The Cat sat", "the cat sat", (0.0, 3.0)),  # case-insensitive, as TER
        ("the dog sat", "the cat sat", (1.0, 3.0)),  # one substitution
        ("on the mat the cat sat", "the cat sat on the mat", (1.0, 6.0)),  # one shift
        ("the cat", "the cat sat down", (2.0, 4.0)),  # two insertions
    ],
)
def test_hter_hand_cases(target: str, new_ref: str, row: tuple[float, float]) -> None:
    assert human.hter_stats([target], [new_ref]).tolist() == [list(row)]


def test_hter_is_ter_with_the_new_reference_as_the_only_reference() -> None:
    """Each demo system's candidates against another system's outputs as if they were
    the judges' new references."""
    data = demo()
    for system, other in zip(SYSTEMS, SYSTEMS[1:], strict=False):
        hyps, new_refs = list(data[system]), list(data[other])
        ter = TER().corpus_score(hyps, [(r,) for r in new_refs])
        hter = human.HTER.corpus_score(human.hter_stats(hyps, new_refs))
        assert ter.stats is not None
        assert hter.stats is not None
        assert hter.stats.tolist() == ter.stats.tolist()
        assert hter.score == pytest.approx(ter.score, abs=1e-9)  # 100·e/n vs e/n·100
    assert hter.signature.startswith("judgments:40|case:lc|tok:tercom|")


def test_searching_many_segments_together_gives_each_ones_own_row() -> None:
    """The batched search (numpy rows across candidates, chunks of mixed lengths, beams
    that cut the matrix, alignments traced together) equals the search of each segment
    alone (small enough to run in plain Python), and several systems scored at once
    equal each system alone."""
    rng = random.Random(5)
    vocab = [f"w{i}" for i in range(9)]
    refs, systems = [], {}
    for _ in range(150):
        base = [rng.choice(vocab) for _ in range(rng.choice([3, 8, 20, 40, 70]))]
        refs.append((_edited(rng, base, vocab), _edited(rng, base, vocab)))
        for s in range(3):
            systems.setdefault(f"s{s}", []).append(_edited(rng, base, vocab))
    ids = {w: k for k, w in enumerate(vocab)}
    pairs = [
        ([ids[w] for w in hyp.split()], [[ids[w] for w in r.split()] for r in seg])
        for hyp, seg in zip(systems["s0"], refs, strict=True)
    ]

    assert ter_rows(pairs) == [ter_row(hyp, seg) for hyp, seg in pairs]
    together = TER().systems_stats(systems, TER().prepare_references(refs))
    for name, hyps in systems.items():
        alone = TER().segment_stats(hyps, TER().prepare_references(refs))
        assert together[name].tolist() == alone.tolist()


@pytest.mark.parametrize("length", [0, 6, 25, 66])
def test_pruned_rows_equal_the_minimum_over_every_reference(length: int) -> None:
    """Many near-copy references per segment (as a grown reference pool): the bounds skip
    references, never the fewest edits, which equal the brute-force minimum of
    :func:`ter_edits` over all references (duplicated, empty and tied ones included)."""
    rng = random.Random(length + 1)
    vocab = [f"w{i}" for i in range(7)]
    refs: list[tuple[str, ...]] = []
    systems: dict[str, list[str]] = {"a": [], "b": []}
    for _ in range(12):
        base = [rng.choice(vocab) for _ in range(length)]
        seg = [_edited(rng, base, vocab) for _ in range(rng.randint(1, 14))]
        seg += [r for r in seg if rng.random() < 0.3] + [""] * (rng.random() < 0.2)
        refs.append(tuple(seg))
        systems["a"].append(_edited(rng, base, vocab))
        systems["b"].append(rng.choice([*seg, ""]))
    metric = TER()
    prepared = metric.prepare_references(refs)
    rows = metric.systems_stats(systems, prepared)
    for name, hyps in systems.items():
        for k, hyp in enumerate(hyps):
            h = [prepared.vocab.get(w, -1) for w in hyp.split()]
            brute = min(ter_edits(h, r) for r in prepared.refs[k])
            assert rows[name][k, 0] == brute
            assert ter_row(h, prepared.refs[k])[0] == brute


def _driven(search: Any) -> tuple[int, int]:
    """A search's return value and the number of requests it made."""
    count, answer = 0, None
    try:
        while True:
            request = search.send(answer)
            count += 1
            answer = answer_all([request])[0]
    except StopIteration as stop:
        return stop.value, count


@pytest.mark.parametrize("length", [5, 20, 45])
def test_a_search_gives_up_only_at_or_above_its_ceiling(length: int) -> None:
    """With a ceiling and the floor of shifted words, a search below the ceiling returns
    its edits, to the edit; one that gives up returns a number no smaller than the
    ceiling, and not above its edits (the floor is a lower bound); some do give up,
    with fewer requests than the whole search."""
    rng = random.Random(length)
    vocab = [f"w{i}" for i in range(6)]
    gave_up = 0
    for _ in range(40):
        base = [rng.choice(vocab) for _ in range(length)]
        hyp = [vocab.index(w) for w in _edited(rng, base, vocab).split()]
        ref = tuple(vocab.index(w) for w in _edited(rng, base, vocab).split())
        edits, requests = _driven(edits_search(hyp, ref))
        assert edits == ter_edits(hyp, ref)
        common = sum(min(hyp.count(w), ref.count(w)) for w in set(ref))
        floor = _floor(max(len(hyp), len(ref)), common, ref)
        for ceiling in range(max(edits - 3, 0), edits + 3):
            found, fewer = _driven(edits_search(hyp, ref, ceiling, floor))
            if edits < ceiling:
                assert (found, fewer) == (edits, requests)
            else:
                assert ceiling <= found <= edits
                gave_up += fewer < requests
    assert gave_up > 0 or length < 10
