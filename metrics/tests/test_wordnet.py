"""WordNet synonyms as NLTK's METEOR takes them, from the same Debian WordNet 3.0 files
(NLTK's reader: the ``nltk_wordnet`` fixture of conftest.py)."""

from __future__ import annotations

import random
import subprocess
import sys
from itertools import chain
from pathlib import Path
from typing import Any

import pytest

from metrics.porter import stem
from metrics.tests.demo import demo_lines
from metrics.tokenize import Preprocessor
from metrics.wordnet import PARTS, WordNetMissing, load_wordnet, wordnet_dir

ROOT = Path(__file__).resolve().parents[2]


def nltk_synonyms(wordnet: Any, word: str) -> set[str]:
    """NLTK's ``_enum_wordnetsyn_match``'s set, verbatim."""
    return set(
        chain.from_iterable(
            (lemma.name() for lemma in synset.lemmas() if lemma.name().find("_") < 0)
            for synset in wordnet.synsets(word)
        )
    ).union({word})


def test_every_demo_word_and_its_stem_has_nltks_synonyms(nltk_wordnet: Any) -> None:
    pp = Preprocessor()
    words = {w.lower() for line in demo_lines() for w in pp.tokens(line)}
    words |= {stem(w) for w in words}
    ours = load_wordnet()
    assert len(words) > 500
    assert [w for w in sorted(words) if ours.synonyms(w) != nltk_synonyms(nltk_wordnet, w)] == []


def test_wordnet_lemmas_inflections_and_exceptions_have_nltks_synonyms(nltk_wordnet: Any) -> None:
    """A sample of lemmas, each with the endings morphy undoes, and every exception
    form of the verb and adjective lists (irregular forms: "went", "better")."""
    root = wordnet_dir()
    lemmas = [
        line.split(" ", 1)[0]
        for _, suffix in PARTS
        for line in (root / f"index.{suffix}").read_text(encoding="utf-8").splitlines()
        if not line.startswith(" ")
    ]
    rnd = random.Random(0)
    words = set(rnd.sample(lemmas, 2000))
    endings = ("s", "es", "ies", "ed", "ing", "er", "est", "men", "ves")
    words |= {w + e for w in rnd.sample(lemmas, 400) for e in endings}
    for suffix in ("verb", "adj"):
        text = (root / f"{suffix}.exc").read_text(encoding="utf-8")
        words |= {line.split()[0] for line in text.splitlines() if line.strip()}
    ours = load_wordnet()
    assert [w for w in sorted(words) if ours.synonyms(w) != nltk_synonyms(nltk_wordnet, w)] == []


@pytest.mark.parametrize(
    "word, has, lacks",
    [
        ("car", {"auto", "automobile", "machine", "motorcar"}, {"motor_vehicle"}),
        ("went", {"go", "travel", "move"}, set()),  # verb.exc: went → go
        ("naked", {"bare", "nude"}, {"au_naturel"}),  # "(a)" markers cut, "_" names left out
        ("party", {"party", "company"}, {"Party"}),
        ("xyzzy", {"xyzzy"}, set()),  # not in WordNet: the word itself only
    ],
)
def test_hand_cases(word: str, has: set[str], lacks: set[str]) -> None:
    synonyms = load_wordnet().synonyms(word)
    assert has <= synonyms
    assert not (lacks & synonyms)


def test_missing_files_are_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "index.noun").write_text("")
    with pytest.raises(WordNetMissing) as caught:
        load_wordnet(tmp_path)
    message = str(caught.value)
    assert "\n" not in message
    assert "index.verb" in message
    assert "wordnet-base" in message
    assert isinstance(caught.value, ValueError)


def test_wnsearchdir_says_where_wordnet_is(tmp_path: Path) -> None:
    code = "from metrics.wordnet import wordnet_dir; print(wordnet_dir())"
    env = {"WNSEARCHDIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert proc.stdout.strip() == str(tmp_path)


def test_the_version_is_read_from_the_files_as_nltk_reads_it(nltk_wordnet: Any) -> None:
    """It goes into METEOR's signature (``wn:3.0``)."""
    assert load_wordnet().version == nltk_wordnet.get_version() == "3.0"
