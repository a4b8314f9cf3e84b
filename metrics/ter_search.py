"""TER's greedy shift search (:mod:`metrics.ter`), run for many sentence pairs at once.

Each sentence pair's search is a generator that follows sacreBLEU's ``_shift`` loop step
for step, but instead of computing an edit distance itself it *asks* for it: it yields a
:class:`~metrics.ter_beam.Request` (the matrix of its current words, to read the
alignment from, or the best of the shifts it wants to try) and is sent the answer.
:func:`run_searches` drives all the generators of a corpus in lock step and has each
step's requests of all pairs computed together (:func:`metrics.ter_beam.answer_all`). The
search itself, its order, its tie-breaking and its limits are sacreBLEU's, so the edits
are too.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence

from metrics.ter_beam import Answer, Key, Request, Words, answer_all

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
MAX_SHIFT_CANDIDATES = 1000

Search = Generator[Request, Answer, tuple[float, float]]
EditSearch = Generator[Request, Answer, int]


def _prefix_sums(values: list[int]) -> list[int]:
    out = [0]
    total = 0
    for v in values:
        total += v
        out.append(total)
    return out


def _shifted(w: Words, start: int, length: int, target: int) -> Words:
    """sacreBLEU's ``_perform_shift``: the block ``w[start:start+length]`` moved so
    that it begins before position ``target`` of the original words."""
    if target < start:
        return w[:target] + w[start : start + length] + w[target:start] + w[start + length :]
    if target > start + length:
        return w[:start] + w[start + length : target] + w[start : start + length] + w[target:]
    return (
        w[:start]
        + w[start + length : length + target]
        + w[start : start + length]
        + w[length + target :]
    )


def _candidates(
    words: Words,
    ref: Words,
    where: dict[int, list[int]],
    alignment: list[int],
    ref_err: list[int],
    hyp_err: list[int],
    checked: int,
) -> tuple[list[Words], list[Key], list[int], int]:
    """The shifts sacreBLEU's ``_shift`` tries, in its order: (shifted words, tie-break
    key ``(length, −start, −target)``, first row it changes, candidates checked so far).
    The enumeration stops, as sacreBLEU's, once ``MAX_SHIFT_CANDIDATES`` are checked."""
    ref_bad = _prefix_sums(ref_err)
    hyp_bad = _prefix_sums(hyp_err)
    n_h, n_r = len(words), len(ref)
    # the errors up to ``start + MAX_SHIFT_SIZE`` however near the end ``start`` is
    ref_ahead = ref_bad + [ref_bad[-1]] * MAX_SHIFT_SIZE
    hyp_ahead = hyp_bad + [hyp_bad[-1]] * MAX_SHIFT_SIZE
    moved: list[Words] = []
    keys: list[Key] = []
    starts: list[int] = []
    for start_h in range(n_h):
        if hyp_ahead[start_h + MAX_SHIFT_SIZE] == hyp_bad[start_h]:
            continue  # no block from here holds a candidate error: no length qualifies
        for start_r in where.get(words[start_h], ()):
            if (
                abs(start_r - start_h) > MAX_SHIFT_DIST
                or alignment[start_r] == start_h
                or ref_ahead[start_r + MAX_SHIFT_SIZE] == ref_bad[start_r]
            ):
                continue  # too far, aligned where it is, or over no reference error
            length = 0
            while words[start_h + length] == ref[start_r + length] and length < MAX_SHIFT_SIZE:
                length += 1
                end_h, end_r = start_h + length, start_r + length
                if (
                    hyp_bad[end_h] != hyp_bad[start_h]
                    and ref_bad[end_r] != ref_bad[start_r]
                    and not start_h <= alignment[start_r] < end_h
                ):
                    prev = -1
                    for offset in range(-1, length):
                        idx = 0 if start_r + offset == -1 else alignment[start_r + offset] + 1
                        if idx == prev:
                            continue
                        prev = idx
                        moved.append(_shifted(words, start_h, length, idx))
                        keys.append((length, -start_h, -idx))
                        starts.append(min(start_h, idx))
                        checked += 1
                    if checked >= MAX_SHIFT_CANDIDATES:
                        return moved, keys, starts, checked
                if end_h == n_h or end_r == n_r:
                    break
    return moved, keys, starts, checked


def edits_search(
    hyp: Sequence[int],
    ref: Words,
    ceiling: int | None = None,
    floor: Callable[[Words], int] | None = None,
) -> EditSearch:
    """sacreBLEU's ``translation_edit_rate`` of one candidate against one reference (both
    token ids), as a search generator: repeatedly apply the shift that lowers the beam
    edit distance the most (ties: the longer block, the earlier block, the earlier
    target) until none does or ``MAX_SHIFT_CANDIDATES`` are checked (the shift of that
    round is then dropped); the edits are the shifts plus the distance after them.

    With a ``ceiling`` (the fewest edits another reference needs) and a ``floor`` (a
    lower bound of the edits of a search from given words, before any shift), the
    search gives up as soon as its shifts so far plus the floor of its current words
    reach the ceiling, and returns that sum: not its edits, but a number no smaller
    than the ceiling, as they would be (a caller after the fewest edits over several
    references needs no more)."""
    words = tuple(hyp)
    if not ref:
        return len(words)
    if words == ref:
        return 0
    where: dict[int, list[int]] = {}
    for r, w in enumerate(ref):
        where.setdefault(w, []).append(r)
    shifts = 0
    checked = 0
    found = yield Request(ref, [words], [0], None, [], 0)
    assert len(found) == 2  # noqa: S101 (the answer to a matrix request)
    matrix, (score, alignment, ref_err, hyp_err) = found
    while True:
        moved, keys, starts, checked = _candidates(
            words, ref, where, alignment, ref_err, hyp_err, checked
        )
        if checked >= MAX_SHIFT_CANDIDATES or not moved:
            return shifts + score
        answer = yield Request(ref, moved, starts, matrix, keys, score)
        assert len(answer) == 3  # noqa: S101 (the answer to a shift request)
        best, _, next_found = answer
        if next_found is None:  # no shift lowers the distance
            return shifts + score
        shifts += 1
        words = moved[best]
        matrix, (score, alignment, ref_err, hyp_err) = next_found
        if ceiling is not None and floor is not None:
            low = shifts + floor(words)
            if low >= ceiling:
                return low


def run_searches(searches: Sequence[Generator[Request, Answer, object]]) -> list[object]:
    """Drive ``searches`` in lock step, answering each step's requests of all of them in
    one batch; their return values, in order."""
    results: list[object] = [None] * len(searches)
    pending: dict[int, Request] = {}

    def advance(k: int, answer: Answer | None) -> None:
        try:
            pending[k] = searches[k].send(answer)  # type: ignore[arg-type]
        except StopIteration as stop:
            results[k] = stop.value
            pending.pop(k, None)

    for k in range(len(searches)):
        advance(k, None)
    while pending:
        step = list(pending.items())
        answers = answer_all([r for _, r in step])
        for (k, _), answer in zip(step, answers, strict=True):
            advance(k, answer)
    return results
