"""Make the "system outputs" of the CJK parity tests from NTREX-128's references.

    python metrics/tests/data/cjk/perturb.py

writes ``ntrex128.sys.<lang>`` beside each ``ntrex128.ref.<lang>``: every line edited
by a few random character edits drawn from a generator seeded with the language and the
line number, so the output is the same on every machine. The edits are those a system's
output differs by and that a tokenizer must get right: characters deleted, swapped or
repeated, full-width punctuation written as ASCII, a space put inside a word; one line
in ten is left as it is. The files are committed; this script says how they were made.
"""

from __future__ import annotations

import random
from pathlib import Path

HERE = Path(__file__).parent
LANGUAGES = ("zh", "ja", "ko")
#: Full-width (and CJK) punctuation and the ASCII a system might write instead.
ASCII_FORMS = {"，": ", ", "。": ".", "（": "(", "）": ")", "：": ":", "！": "!", "？": "?",
               "「": '"', "」": '"', "“": '"', "”": '"', "、": ",", "‘": "'", "’": "'"}  # fmt: skip


def _delete(line: str, rng: random.Random) -> str:
    start = rng.randrange(len(line))
    return line[:start] + line[start + rng.randint(1, 4) :]


def _swap(line: str, rng: random.Random) -> str:
    i = rng.randrange(len(line) - 1)
    return line[:i] + line[i + 1] + line[i] + line[i + 2 :]


def _repeat(line: str, rng: random.Random) -> str:
    start = rng.randrange(len(line))
    end = start + rng.randint(1, 3)
    return line[:end] + line[start:end] + line[end:]


def _ascii_punctuation(line: str, rng: random.Random) -> str:
    marks = [i for i, c in enumerate(line) if c in ASCII_FORMS]
    if not marks:
        return line
    i = rng.choice(marks)
    return line[:i] + ASCII_FORMS[line[i]] + line[i + 1 :]


def _space(line: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(line))
    return line[:i] + " " + line[i:]


EDITS = (_delete, _swap, _repeat, _ascii_punctuation, _space)


def perturbed(line: str, rng: random.Random) -> str:
    """``line`` with one to three edits (none one time in ten)."""
    if rng.random() < 0.1 or len(line) < 2:
        return line
    for _ in range(rng.randint(1, 3)):
        line = rng.choice(EDITS)(line, rng) if len(line) >= 2 else line
    return line.strip() or line


def main() -> None:
    for lang in LANGUAGES:
        refs = (HERE / f"ntrex128.ref.{lang}").read_text(encoding="utf-8").splitlines()
        out = [perturbed(line, random.Random(f"{lang}:{n}")) for n, line in enumerate(refs)]
        (HERE / f"ntrex128.sys.{lang}").write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
