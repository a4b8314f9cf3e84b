"""NLTK's WordNet reader on the same Debian WordNet 3.0 files that metrics.wordnet reads,
for the METEOR parity tests (no nltk_data download); sacreBLEU's TER remembered per
segment for the tests that compare ours with it again and again.

NLTK's ``WordNetCorpusReader`` wants a corpus directory inside one of its data paths,
with two files Debian's ``wordnet-base`` does not ship: ``lexnames`` (the 45
lexicographer file names, fixed in WordNet 3.0; only a synset's ``lexname()`` reads
them) and ``index.sense`` (read only to map another WordNet version's synsets for the
multilingual functions; empty here, as there is nothing to map). The dictionary files
are copied, not linked: NLTK refuses a path that resolves outside its data paths.
"""

from __future__ import annotations

import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sacrebleu.metrics.ter import TER as SacreTER

from metrics.wordnet import load_wordnet, wordnet_dir

LEXNAMES = [
    "adj.all",
    "adj.pert",
    "adv.all",
    "noun.Tops",
    "noun.act",
    "noun.animal",
    "noun.artifact",
    "noun.attribute",
    "noun.body",
    "noun.cognition",
    "noun.communication",
    "noun.event",
    "noun.feeling",
    "noun.food",
    "noun.group",
    "noun.location",
    "noun.motive",
    "noun.object",
    "noun.person",
    "noun.phenomenon",
    "noun.plant",
    "noun.possession",
    "noun.process",
    "noun.quantity",
    "noun.relation",
    "noun.shape",
    "noun.state",
    "noun.substance",
    "noun.time",
    "verb.body",
    "verb.change",
    "verb.cognition",
    "verb.communication",
    "verb.competition",
    "verb.consumption",
    "verb.contact",
    "verb.creation",
    "verb.emotion",
    "verb.motion",
    "verb.perception",
    "verb.possession",
    "verb.social",
    "verb.stative",
    "verb.weather",
    "adj.ppl",
]
SYNTACTIC_CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}


@pytest.fixture(scope="session")
def nltk_wordnet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """``nltk.corpus.reader.WordNetCorpusReader`` on a copy of our WordNet files."""
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    source = load_wordnet().root  # WordNetMissing (a clear failure) if not installed
    assert source == wordnet_dir()
    top = tmp_path_factory.mktemp("nltk_data")
    corpus = top / "corpora" / "wordnet"
    corpus.mkdir(parents=True)
    for path in Path(source).iterdir():
        if path.is_file():
            shutil.copyfile(path, corpus / path.name)
    (corpus / "lexnames").write_text(
        "".join(
            f"{i:02d}\t{name}\t{SYNTACTIC_CATEGORY[name.split('.')[0]]}\n"
            for i, name in enumerate(LEXNAMES)
        )
    )
    (corpus / "index.sense").write_text("")
    nltk.data.path.append(str(top))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available"
        reader = WordNetCorpusReader(str(corpus), None)
    assert reader.get_version() == "3.0"
    yield reader
    nltk.data.path.remove(str(top))


@pytest.fixture(scope="module")
def sacre_ter_once_a_segment() -> Iterator[None]:
    """sacreBLEU's TER of each segment (its edits and mean reference length) computed once
    for the module: its plain-Python search is most of the time of the tests that hold
    our TER to it, and they ask it for the same systems against the same references
    again and again (``test_cli_significance.py``: each seed, each test;
    ``test_peer_reading.py``: each file with or without a byte-order mark, whose
    segments differ in the first alone). What it returned the first time is what it
    returns: a pure function of the segment's words, remembered."""
    compute = SacreTER._compute_segment_statistics
    remembered: dict[tuple[str, tuple[tuple[str, ...], ...]], list[float]] = {}

    def once(self: SacreTER, hypothesis: str, ref_kwargs: dict[str, Any]) -> list[float]:
        key = (hypothesis, tuple(tuple(words) for words in ref_kwargs["ref_words"]))
        if key not in remembered:
            remembered[key] = compute(self, hypothesis, ref_kwargs)
        return list(remembered[key])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SacreTER, "_compute_segment_statistics", once)
        yield
