"""chrF's clipped matches (:mod:`metrics.chrf_match`): every (candidate, reference slot)
of segments with few and with many references against Counter intersections, by both
ways of summing (pairs, matrix products), which must agree to the integer."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from metrics import chrf_match
from metrics.chrf import pair_stats


def plain(hyp: str, ref: str, n: int) -> int:
    h, r = hyp.replace(" ", ""), ref.replace(" ", "")
    hc = Counter(h[i : i + n] for i in range(len(h) - n + 1))
    rc = Counter(r[i : i + n] for i in range(len(r) - n + 1))
    return sum((hc & rc).values())


def corpus(seed: int) -> tuple[list[str], np.ndarray, list[tuple[str, ...]]]:
    """Segments of 1 to 40 near-copy references (duplicates, empty ones; a long word of
    one repeated letter, so that counts reach far), two or three candidates each."""
    rnd = random.Random(seed)
    letters = "aab cde!é漢"
    refs, cands, segs = [], [], []
    for k in range(10):
        base = "".join(rnd.choice(letters) for _ in range(rnd.randint(0, 30)))
        seg = []
        for _ in range(rnd.choice([1, 2, 3, 7, 8, 9, 40])):
            text = list(base)
            for _ in range(rnd.randint(0, 4)):
                text.insert(rnd.randint(0, len(text)), rnd.choice(letters))
            seg.append("".join(text))
        seg += [r for r in seg if rnd.random() < 0.2] + [""] * (rnd.random() < 0.2)
        seg += ["a" * rnd.randint(20, 40)] * (rnd.random() < 0.3)
        refs.append(tuple(seg))
        for cand in rnd.sample([*seg, base, base[::-1], "", "a" * 30], 3):
            cands.append(cand)
            segs.append(k)
    return cands, np.asarray(segs, dtype=np.int64), refs


@pytest.mark.parametrize("many_refs", [1, 8, 10**9])
@pytest.mark.parametrize("seed", range(3))
def test_matches_of_every_slot_equal_counter_intersections(
    monkeypatch: pytest.MonkeyPatch, many_refs: int, seed: int
) -> None:
    """Every segment by matrix products (1), by pairs (10**9), or each by its own width."""
    monkeypatch.setattr(chrf_match, "_MANY_REFS", many_refs)
    cands, segs, refs = corpus(seed)

    stats, valid = pair_stats(refs, cands, segs)

    for c, (hyp, k) in enumerate(zip(cands, segs.tolist(), strict=True)):
        assert int(valid[c].sum()) == len(refs[k])
        for slot, ref in enumerate(refs[k]):
            found = [int(stats[c, slot, 3 * n + 2]) for n in range(6)]
            assert found == [plain(hyp, ref, n + 1) for n in range(6)]
        assert not stats[c, len(refs[k]) :, 2::3].any()  # no match in a slot it lacks
