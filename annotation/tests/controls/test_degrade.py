"""The bad-reference control's candidate (``annotation/controls/degrade.py``): a seeded
mix of words dropped, duplicated and replaced by words of another sentence, about one
in six words and at least one, never the original again, never empty; and the words
the errors added, which the pass rule reads."""

from __future__ import annotations

import random

import pytest

from annotation.controls.degrade import WORDS_PER_ERROR, added_words, injected_errors
from annotation.text import words

SENTENCE = words("the committee approved the new budget for next year after a long debate .")
FOREIGN = words("rain fell on the quiet harbour all night")


def test_the_same_seed_gives_the_same_errors_another_seed_others() -> None:
    def degraded(seed: str) -> tuple[str, ...]:
        return injected_errors(SENTENCE, FOREIGN, random.Random(seed))

    assert degraded("a") == degraded("a")
    assert len({degraded(str(k)) for k in range(20)}) > 10


@pytest.mark.parametrize("length", [1, 2, 3, 6, 12, 30, 60])
def test_errors_grow_with_the_length_and_always_change_the_candidate(length: int) -> None:
    candidate = tuple(f"w{k}" for k in range(length))
    for seed in range(30):
        shown = injected_errors(candidate, FOREIGN, random.Random(seed))
        changed = sum(1 for w in shown if w not in candidate) + abs(len(shown) - length)
        differing = sum(1 for a, b in zip(shown, candidate, strict=False) if a != b)

        assert shown != candidate
        assert shown
        assert max(changed, differing) >= 1
        assert changed <= 2 * max(1, round(length / WORDS_PER_ERROR))


def test_the_three_kinds_of_error_all_occur() -> None:
    seen = set()
    for seed in range(40):
        shown = injected_errors(SENTENCE, FOREIGN, random.Random(seed))
        if len(shown) < len(SENTENCE):
            seen.add("drop")
        if any(w in FOREIGN and w not in SENTENCE for w in shown):
            seen.add("replace")
        if any(a == b for a, b in zip(shown, shown[1:], strict=False)):
            seen.add("duplicate")

    assert seen == {"drop", "duplicate", "replace"}


def test_without_words_of_another_sentence_only_drops_and_duplicates() -> None:
    for seed in range(20):
        shown = injected_errors(SENTENCE, (), random.Random(seed))

        assert set(shown) <= set(SENTENCE)
        assert shown != SENTENCE


def test_a_lone_word_is_never_dropped_and_an_empty_candidate_gets_a_word() -> None:
    for seed in range(20):
        assert injected_errors(("yes",), (), random.Random(seed)) == ("yes", "yes")
        assert injected_errors((), FOREIGN, random.Random(seed))[0] in FOREIGN


def test_the_added_words_are_the_copies_beyond_the_original() -> None:
    original = words("the cat sat on the mat .")
    shown = words("the cat sat sat on the dog .")

    assert added_words(original, shown) == {"sat": 1, "dog": 1}
    assert added_words(original, original) == {}
