"""WordNet 3.0 synonyms for METEOR, read from the dictionary files themselves.

METEOR's synonym stage (:mod:`metrics.meteor`) asks, for a word w, what NLTK's
``meteor_score`` asks of ``nltk.corpus.wordnet``::

    {lemma.name() for s in wordnet.synsets(w) for lemma in s.lemmas()
     if "_" not in lemma.name()} | {w}

:func:`WordNet.synonyms` answers the same from the same files, step by step as NLTK's
``WordNetCorpusReader``:

* ``synsets(w)`` lowercases w, then for each part of speech in NLTK's order (noun,
  verb, adjective, adverb) takes the base forms ``_morphy`` finds: the exception list
  ``<pos>.exc`` if it has w (its base forms), else NLTK's suffix rules applied once;
  w itself first; only forms that ``index.<pos>`` lists for that part of speech;
* each form's synsets are the offsets of its ``index.<pos>`` line; a synset's lemma
  names are the words of its line in ``data.<pos>``, an adjective's syntactic marker
  ("(a)", "(p)", "(ip)") cut off, case kept ("Party" is not "party").

The files are Debian's ``wordnet-base`` (WordNet 3.0, ``/usr/share/wordnet``; the
directory ``$WNSEARCHDIR`` if set, as WordNet's own tools read). Nothing is downloaded:
without them, :func:`load_wordnet` raises :class:`WordNetMissing`, one line saying
what to install. The index lines are kept as text and parsed when a word needs one;
each word's synonyms are computed once (the tests hold them equal to NLTK's reader on
the same files, for every word of the demo corpus and many of WordNet's own).
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

DEFAULT_DIR = Path("/usr/share/wordnet")
#: (part of speech, file suffix) in NLTK's ``POS_LIST`` order.
PARTS = (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv"))
#: NLTK's ``MORPHOLOGICAL_SUBSTITUTIONS``.
SUBSTITUTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (
        ("s", ""),
        ("ses", "s"),
        ("ves", "f"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "v": (
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}
_MARKER = re.compile(r"(.*?)(\([^()]*\))?$")
#: The version in the licence header of a data file, as NLTK's ``get_version`` reads it.
_VERSION = re.compile(rb"Word[nN]et (\d+\+?|\d+\.\d+) Copyright")
INSTALL_HINT = "install Debian's wordnet-base: apt-get install wordnet-base, or make wordnet"


class WordNetMissing(ValueError):
    """The WordNet dictionary files are not there (a one-line message saying so)."""


def not_found(root: Path) -> WordNetMissing:
    """The one-line error when ``root`` holds no WordNet at all."""
    return WordNetMissing(f"METEOR needs WordNet 3.0, not found in {root}; {INSTALL_HINT}")


def wordnet_dir() -> Path:
    """Where the dictionary files are read from: ``$WNSEARCHDIR`` or /usr/share/wordnet."""
    return Path(os.environ.get("WNSEARCHDIR") or DEFAULT_DIR)


class WordNet:
    """The parts of a WordNet dictionary directory METEOR reads (module docstring)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        needed = [f"{kind}.{suffix}" for _, suffix in PARTS for kind in ("index", "data")]
        needed += [f"{suffix}.exc" for _, suffix in PARTS]
        missing = [name for name in needed if not (self.root / name).is_file()]
        if len(missing) == len(needed):
            raise not_found(self.root)
        if missing:
            raise WordNetMissing(
                f"METEOR needs WordNet 3.0: {', '.join(missing)} not found in {self.root}; "
                f"{INSTALL_HINT}"
            )
        self._index: dict[str, dict[str, str]] = {}
        self._exceptions: dict[str, dict[str, list[str]]] = {}
        self._data: dict[str, bytes] = {}
        for pos, suffix in PARTS:
            text = (self.root / f"index.{suffix}").read_text(encoding="utf-8")
            lines = (line.split(" ", 1) for line in text.splitlines() if line[:1] != " ")
            self._index[pos] = {parts[0]: parts[1] for parts in lines if len(parts) == 2}
            exceptions: dict[str, list[str]] = {}
            for line in (self.root / f"{suffix}.exc").read_text(encoding="utf-8").splitlines():
                terms = line.split()
                if terms:
                    exceptions[terms[0]] = terms[1:]
            self._exceptions[pos] = exceptions
            self._data[pos] = (self.root / f"data.{suffix}").read_bytes()
        #: "3.0" for Debian's wordnet-base; it goes into METEOR's signature
        self.version = version_in(self._data["a"][:4096])
        self._names: dict[tuple[str, int], tuple[str, ...]] = {}
        self._synonyms: dict[str, frozenset[str]] = {}

    def clear_cache(self) -> None:
        """Forget every word's synonyms and every synset read (for benchmarks that time
        a cold start)."""
        self._names.clear()
        self._synonyms.clear()

    def morphy(self, form: str, pos: str) -> list[str]:
        """NLTK's ``_morphy(form, pos)``: the base forms of ``form`` that WordNet lists."""
        index = self._index[pos]
        exceptions = self._exceptions[pos]
        if form in exceptions:
            forms = exceptions[form]
        else:
            forms = [
                form[: -len(old)] + new for old, new in SUBSTITUTIONS[pos] if form.endswith(old)
            ]
        return list(dict.fromkeys(f for f in [form, *forms] if f in index))

    def offsets(self, lemma: str, pos: str) -> list[int]:
        """The synset offsets of ``lemma`` in ``index.<pos>`` (its last fields)."""
        fields = self._index[pos][lemma].split()
        count = int(fields[1])
        return [int(x) for x in fields[len(fields) - count :]]

    def lemma_names(self, pos: str, offset: int) -> tuple[str, ...]:
        """The lemma names of the synset at ``offset`` in ``data.<pos>``."""
        key = (pos, offset)
        names = self._names.get(key)
        if names is None:
            data = self._data[pos]
            end = data.index(b"\n", offset)
            fields = data[offset:end].decode("utf-8").split("|", 1)[0].split()
            count = int(fields[3], 16)
            names = tuple(
                _MARKER.match(word).group(1)  # type: ignore[union-attr]
                for word in fields[4 : 4 + 2 * count : 2]
            )
            self._names[key] = names
        return names

    def synonyms(self, word: str) -> frozenset[str]:
        """What NLTK's METEOR takes as the synonyms of ``word`` (module docstring)."""
        found = self._synonyms.get(word)
        if found is None:
            lemma = word.lower()
            names = {word}
            for pos, _ in PARTS:
                for form in self.morphy(lemma, pos):
                    for offset in self.offsets(form, pos):
                        names.update(n for n in self.lemma_names(pos, offset) if "_" not in n)
            found = frozenset(names)
            self._synonyms[word] = found
        return found


@cache
def _load(root: Path) -> WordNet:
    return WordNet(root)


def version_in(header: bytes) -> str:
    """The WordNet version a data file's licence header names ("unknown" if none)."""
    found = _VERSION.search(header)
    return found.group(1).decode("ascii") if found else "unknown"


@cache
def _version(root: Path) -> str:
    try:
        with (root / "data.adj").open("rb") as data:
            return version_in(data.read(4096))
    except OSError:
        raise not_found(root) from None


def wordnet_version(root: Path | str | None = None) -> str:
    """The version of the WordNet in ``root`` (default :func:`wordnet_dir`) from one file's
    header, without reading the dictionary: a signature needs no more (a page that shows
    METEOR's signature never loads WordNet's 50 MB)."""
    return _version(Path(root) if root is not None else wordnet_dir())


def load_wordnet(root: Path | str | None = None) -> WordNet:
    """The WordNet of ``root`` (default :func:`wordnet_dir`), read once per process;
    :class:`WordNetMissing` if its files are not there."""
    return _load(Path(root) if root is not None else wordnet_dir())
