"""Word alignment and Levenshtein distance: seed 001 Figure 1, hand cases, the documented
tie-break rule checked by brute force, and the bit-parallel distances against a
textbook DP."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import product

import pytest

from metrics.align import (
    Alignment,
    EditOp,
    Op,
    PreparedRef,
    align,
    distance,
    distance_prepared,
    distances_prepared,
)

FIGURE_1_HYP = "Diagram show the scan procedure for locate the archives ."
FIGURE_1_REF = "This figure shows the scan procedure to find the archives ."


def textbook_distance(a: Sequence[str], b: Sequence[str]) -> int:
    """The Wagner–Fischer DP, written as plainly as possible: the oracle."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(
                d[i - 1][j] + 1,
                d[i][j - 1] + 1,
                d[i - 1][j - 1] + (a[i - 1] != b[j - 1]),
            )
    return d[len(a)][len(b)]


def show(alignment: Alignment) -> list[str]:
    """Compact form: ``w`` match, ``a>b`` substitution, ``-a`` extra, ``+b`` missing."""
    out = []
    for e in alignment.ops:
        if e.op is Op.MATCH:
            out.append(f"{e.hyp_word}")
        elif e.op is Op.SUBSTITUTION:
            out.append(f"{e.hyp_word}>{e.ref_word}")
        elif e.op is Op.EXTRA:
            out.append(f"-{e.hyp_word}")
        else:
            out.append(f"+{e.ref_word}")
    return out


def test_figure_1_alignment() -> None:
    """Seed 001 Figure 1: 5 edits, the missing "This" before the first candidate word."""
    hyp, ref = FIGURE_1_HYP.split(), FIGURE_1_REF.split()
    alignment = align(hyp, ref)
    assert alignment.distance == 5
    assert alignment.ops == (
        EditOp(Op.MISSING, 0, 0, None, "This"),
        EditOp(Op.SUBSTITUTION, 0, 1, "Diagram", "figure"),
        EditOp(Op.SUBSTITUTION, 1, 2, "show", "shows"),
        EditOp(Op.MATCH, 2, 3, "the", "the"),
        EditOp(Op.MATCH, 3, 4, "scan", "scan"),
        EditOp(Op.MATCH, 4, 5, "procedure", "procedure"),
        EditOp(Op.SUBSTITUTION, 5, 6, "for", "to"),
        EditOp(Op.SUBSTITUTION, 6, 7, "locate", "find"),
        EditOp(Op.MATCH, 7, 8, "the", "the"),
        EditOp(Op.MATCH, 8, 9, "archives", "archives"),
        EditOp(Op.MATCH, 9, 10, ".", "."),
    )
    assert (alignment.matches, alignment.substitutions, alignment.extras, alignment.missing) == (
        6,
        4,
        0,
        1,
    )
    assert distance(hyp, ref) == 5


ALIGN_CASES = [
    # seed 001 §3.1: the new reference of the XML example is one substitution away
    (
        "Chart represent the method .",
        "Chart represents the method .",
        1,
        ["Chart", "represent>represents", "the", "method", "."],
    ),
    ("", "", 0, []),
    ("", "a b", 2, ["+a", "+b"]),
    ("a b", "", 2, ["-a", "-b"]),
    ("a b c", "a b c", 0, ["a", "b", "c"]),
    ("a b c", "x y z", 3, ["a>x", "b>y", "c>z"]),
    # pure insertion / deletion inside the sentence
    ("a b c", "a x b c", 1, ["a", "+x", "b", "c"]),
    ("a x b c", "a b c", 1, ["a", "-x", "b", "c"]),
    ("a", "a b", 1, ["a", "+b"]),
    ("a b", "a", 1, ["a", "-b"]),
    # most matches among equal distances: keep the shared word
    ("x a", "a y", 2, ["-x", "a", "+y"]),
    # insertions and deletions as early as possible
    ("the the cat", "the cat", 1, ["-the", "the", "cat"]),
    ("a a a", "a", 2, ["-a", "-a", "a"]),
    ("a", "a a a", 2, ["+a", "+a", "a"]),
    (
        "Chart represent the method .",
        "This chart represents the method .",
        3,
        ["+This", "Chart>chart", "represent>represents", "the", "method", "."],
    ),
    # diagonal, then EXTRA, then MISSING, choosing from the end
    ("a b", "b a", 2, ["+b", "a", "-b"]),
    ("big red car", "red big car", 2, ["+red", "big", "-red", "car"]),
    ("x", "y", 1, ["x>y"]),
]


@pytest.mark.parametrize("hyp, ref, dist, expected", ALIGN_CASES)
def test_hand_alignments(hyp: str, ref: str, dist: int, expected: list[str]) -> None:
    alignment = align(hyp.split(), ref.split())
    assert alignment.distance == dist
    assert show(alignment) == expected
    assert distance(hyp.split(), ref.split()) == dist


@pytest.mark.parametrize(
    "hyp, ref, expected",
    [
        # MISSING: the candidate position before which the word is missing
        ("a", "a b", EditOp(Op.MISSING, 1, 1, None, "b")),
        ("a", "b a", EditOp(Op.MISSING, 0, 0, None, "b")),
        # EXTRA: the reference position before which the extra word sits
        ("a b", "a", EditOp(Op.EXTRA, 1, 1, "b", None)),
        ("b a", "a", EditOp(Op.EXTRA, 0, 0, "b", None)),
    ],
)
def test_gap_positions(hyp: str, ref: str, expected: EditOp) -> None:
    assert expected in align(hyp.split(), ref.split()).ops


def test_op_values_are_the_page_markup() -> None:
    assert [op.value for op in Op] == ["match", "substitution", "extra", "missing"]
    assert f"{Op.SUBSTITUTION}" == "substitution"
    assert Op("missing") is Op.MISSING


def all_alignments(hyp: tuple[str, ...], ref: tuple[str, ...]) -> list[tuple[EditOp, ...]]:
    """Every alignment of two short sentences (the brute-force oracle for the tie-break)."""
    out: list[tuple[EditOp, ...]] = []

    def walk(i: int, j: int, acc: tuple[EditOp, ...]) -> None:
        if i == len(hyp) and j == len(ref):
            out.append(acc)
            return
        if i < len(hyp) and j < len(ref):
            op = Op.MATCH if hyp[i] == ref[j] else Op.SUBSTITUTION
            walk(i + 1, j + 1, (*acc, EditOp(op, i, j, hyp[i], ref[j])))
        if i < len(hyp):
            walk(i + 1, j, (*acc, EditOp(Op.EXTRA, i, j, hyp[i], None)))
        if j < len(ref):
            walk(i, j + 1, (*acc, EditOp(Op.MISSING, i, j, None, ref[j])))

    walk(0, 0, ())
    return out


RANK = {Op.MATCH: 0, Op.SUBSTITUTION: 0, Op.EXTRA: 1, Op.MISSING: 2}


def documented_choice(hyp: tuple[str, ...], ref: tuple[str, ...]) -> tuple[EditOp, ...]:
    """The module's rule: fewest edits, then most matches, then — read from the end —
    diagonal before EXTRA before MISSING."""

    def key(ops: tuple[EditOp, ...]) -> tuple[int, int, list[int]]:
        edits = sum(e.op is not Op.MATCH for e in ops)
        matches = sum(e.op is Op.MATCH for e in ops)
        return edits, -matches, [RANK[e.op] for e in reversed(ops)]

    return min(all_alignments(hyp, ref), key=key)


@pytest.mark.parametrize("alphabet", ["ab", "abc"])
def test_tie_break_rule_matches_brute_force(alphabet: str) -> None:
    """Every pair of sentences up to 4 words over a tiny vocabulary (many ties)."""
    sentences = [s for n in range(5) for s in product(alphabet, repeat=n)]
    if len(alphabet) == 3:
        sentences = [s for s in sentences if len(s) <= 3]
    for hyp, ref in product(sentences, repeat=2):
        expected = documented_choice(hyp, ref)
        got = align(hyp, ref)
        assert got.ops == expected, (hyp, ref)
        assert got.distance == sum(e.op is not Op.MATCH for e in expected)


def random_pairs(seed: int, count: int) -> list[tuple[list[str], list[str]]]:
    """Random word lists: small vocabularies (many repeats) to long sentences (> 64 words)."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        vocab = [f"w{i}" for i in range(rng.choice([1, 2, 3, 5, 10, 50]))]
        max_len = rng.choice([3, 8, 30, 90])
        hyp = [rng.choice(vocab) for _ in range(rng.randint(0, max_len))]
        ref = [rng.choice(vocab) for _ in range(rng.randint(0, max_len))]
        pairs.append((hyp, ref))
    return pairs


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_distance_equals_alignment_and_textbook(seed: int) -> None:
    """≥ 2,000 random pairs in all: bit-parallel == DP backtrace == textbook DP."""
    pairs = random_pairs(seed, 600)
    prepared = [PreparedRef.from_tokens(ref) for _, ref in pairs]
    batched = distances_prepared([hyp for hyp, _ in pairs], prepared)
    for (hyp, ref), prep, batch in zip(pairs, prepared, batched, strict=True):
        expected = textbook_distance(hyp, ref)
        alignment = align(hyp, ref)
        assert alignment.distance == expected
        assert distance(hyp, ref) == expected
        assert distance_prepared(hyp, prep) == expected
        assert batch == expected


@pytest.mark.parametrize("seed", [10, 11])
def test_alignment_is_consistent(seed: int) -> None:
    """The ops spell out both sentences, positions run in order, counts add up."""
    for hyp, ref in random_pairs(seed, 300):
        alignment = align(hyp, ref)
        ops = alignment.ops
        assert [e.hyp_word for e in ops if e.op is not Op.MISSING] == hyp
        assert [e.ref_word for e in ops if e.op is not Op.EXTRA] == ref
        assert all(
            (e.hyp_word == e.ref_word) == (e.op is Op.MATCH)
            for e in ops
            if e.op in (Op.MATCH, Op.SUBSTITUTION)
        )
        i = j = 0
        for e in ops:
            assert (e.hyp_pos, e.ref_pos) == (i, j)
            i += e.op is not Op.MISSING
            j += e.op is not Op.EXTRA
        assert alignment.distance == alignment.substitutions + alignment.extras + alignment.missing
        assert (alignment.hyp_length, alignment.ref_length) == (len(hyp), len(ref))


def test_prepared_reference_is_reusable() -> None:
    """One PreparedRef, many candidates (the same reference against 10–20 systems)."""
    ref = FIGURE_1_REF.split()
    prepared = PreparedRef.from_tokens(ref)
    candidates = [FIGURE_1_HYP.split(), ref, [], ["This"], ref[::-1], ref * 3]
    expected = [textbook_distance(c, ref) for c in candidates]
    assert [distance_prepared(c, prepared) for c in candidates] == expected
    assert distances_prepared(candidates, [prepared] * len(candidates)) == expected
    assert prepared.length == len(ref)
    assert prepared.peq["the"] == (1 << 3) | (1 << 8)


@pytest.mark.parametrize(
    "hyps, refs, expected",
    [
        ([], [], []),
        ([[]], [PreparedRef.from_tokens([])], [0]),
        ([[], ["a"]], [PreparedRef.from_tokens(["a", "b"]), PreparedRef.from_tokens([])], [2, 1]),
    ],
)
def test_distances_prepared_edges(
    hyps: list[list[str]], refs: list[PreparedRef], expected: list[int]
) -> None:
    assert distances_prepared(hyps, refs) == expected


def test_distances_prepared_needs_parallel_inputs() -> None:
    with pytest.raises(ValueError, match="2 candidates but 1 references"):
        distances_prepared([["a"], ["b"]], [PreparedRef.from_tokens(["a"])])
