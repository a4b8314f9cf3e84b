"""The text rules of the aWER method, each in one place.

* **Words.** aWER counts edits between a candidate and its new reference over 13a tokens:
  seed 001's own example confirms it, ``awer="1/5"`` for "Chart represent the method."
  against the new reference "Chart represents the method." (five tokens only if the final
  period is one).
* **A new reference as text** (:func:`readable_new_ref`): the judge's clicks make a
  sequence of 13a words; it is stored, shown and exported as those words detokenized
  (Moses rules, sacremoses: "Hello, world." rather than "Hello , world .") wherever the
  detokenized text gives back exactly the same 13a words, and as the words joined by
  single spaces where it would not. Every count reads the 13a words of the stored text,
  so both forms count the same (docs/new-references.md).
* **Reference order.** A sentence's references are ordered first reference first, then
  in file order: the order of the metrics' reference lists, of the judge's pool, and the
  tie-break of the nearest reference.
* **The nearest reference** (seed 001 §3: the tool proposes "the most similar"
  reference): the smallest edit distance to the candidate, the earlier reference on ties.
* **The languages of a corpus** (:func:`corpus_languages`): its texts are marked with
  the languages its file names, and laid out right to left where that language is
  written so; a text of a corpus that names none takes its own first strong character's
  direction (the page's ``dir="auto"``). Its target language also picks the dashboard's
  default tokenizer (:func:`corpus_tokenizer`: ``zh``, ``ja-mecab``, ``ko-mecab``).
* **A new reference's counts** (:func:`new_ref_counts`): aWER's edits and length,
  computed whenever a new reference is stored, and HTER's (TER with shifts against the
  new reference, :func:`hter_counts`), computed off the judge's clicks
  (:mod:`annotation.statistics.hter`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from metrics.align import distance
from metrics.human import hter_row, hter_rows
from metrics.tokenize import Preprocessor, tokenizer_for_language

if TYPE_CHECKING:
    from sacremoses import MosesDetokenizer

AWER_PREPROCESSOR = Preprocessor(tokenize="13a")
#: The detokenizer's language where a corpus does not name its target language.
DEFAULT_LANGUAGE = "en"
#: The corpus attributes (on ``evalTrans``, kept verbatim by the import) that may name
#: the target language, the first one present wins: WMT's ``trglang``, then plainer names.
LANGUAGE_ATTRIBUTES = ("trglang", "target-language", "target_language", "lang")
#: The corpus attributes that may name the source language, the first one present wins.
SOURCE_LANGUAGE_ATTRIBUTES = ("srclang", "source-language", "source_language")
#: Languages (ISO 639-1 and -3) and scripts (ISO 15924) written right to left.
RIGHT_TO_LEFT = frozenset(
    {"ar", "ara", "arc", "ckb", "dv", "div", "fa", "fas", "he", "heb", "iw", "ps", "pus"}
    | {"sd", "snd", "syr", "ug", "uig", "ur", "urd", "yi", "yid"}
    | {"adlm", "arab", "hebr", "nkoo", "rohg", "syrc", "thaa"}
)
#: A language tag as HTML's ``lang`` takes it (BCP 47: "ar", "pt-br", "az-arab").
_LANGUAGE_TAG = re.compile(r"[a-z]{2,3}(-[a-z0-9]{1,8})*")
#: The role of a sentence's first reference, and the roles of all its reference
#: translations (every role but ``system``): the values of ``Translator.Role``, which
#: takes them from here.
FIRST_REFERENCE = "first_reference"
REFERENCE_ROLES = (FIRST_REFERENCE, "reference")


class Attributed(Protocol):
    """What the language rules read of a corpus: the attributes of its file's
    ``evalTrans`` element, kept verbatim by the import. A rule of words reads those,
    never the database, so it names no model (the models read this module's roles)."""

    @property
    def extra_attrs(self) -> Any: ...


def words(text: str, *, cache: bool = True) -> tuple[str, ...]:
    """The words the judge sees and aWER counts.

    ``cache=False`` for imports: a file's texts do not come back, and caching them would
    make memory grow with the file.
    """
    return AWER_PREPROCESSOR.tokens(text) if cache else AWER_PREPROCESSOR.tokens_uncached(text)


def readable_new_ref(
    tokens: Sequence[str], language: str = DEFAULT_LANGUAGE, *, cache: bool = True
) -> str:
    """A new reference made of ``tokens`` (13a words) as the judge reads it: the tokens
    detokenized by Moses' rules, if that text tokenizes back to exactly ``tokens``,
    otherwise the tokens joined by single spaces. :func:`words` of the result are then
    those of the spaced form, so every count (aWER's edits and length, HTER, the pool's
    figures under 13a) is the one the spaced form gave. The same words always give the
    same text, so a new reference exported and imported again comes back byte for byte.
    """
    tokens = tuple(tokens)
    text = _detokenize(tokens, language)
    return text if words(text, cache=cache) == tokens else " ".join(tokens)


def readable_text(text: str, language: str = DEFAULT_LANGUAGE, *, cache: bool = True) -> str:
    """A new reference as stored, from any text of it (typed by the judge, a reference or
    candidate taken as one, a file's ``newRef``): :func:`readable_new_ref` of its 13a
    words, whatever its spacing."""
    return readable_new_ref(words(text, cache=cache), language, cache=cache)


def corpus_language(corpus: Attributed) -> str:
    """The corpus's target language as its file names it (:data:`LANGUAGE_ATTRIBUTES`),
    else :data:`DEFAULT_LANGUAGE`: the language the new references are detokenized for."""
    return _named_language(corpus, LANGUAGE_ATTRIBUTES) or DEFAULT_LANGUAGE


def corpus_tokenizer(corpus: Attributed) -> str:
    """The tokenizer BLEU's peers use for the corpus's target language: ``zh``,
    ``ja-mecab`` or ``ko-mecab`` for Chinese, Japanese and Korean (sacreBLEU's, as WMT
    publishes them), else ``13a`` (:func:`metrics.tokenize.tokenizer_for_language`)."""
    return tokenizer_for_language(_named_language(corpus, LANGUAGE_ATTRIBUTES))


def _named_language(corpus: Attributed, names: Sequence[str]) -> str:
    """The first of the corpus attributes ``names`` that says something, lower case; ""
    for none."""
    attrs: dict[str, str] = dict(corpus.extra_attrs)
    return next((attrs[n].strip().lower() for n in names if attrs.get(n, "").strip()), "")


@dataclass(frozen=True)
class TextLanguage:
    """How the page marks a corpus's texts of one side: ``lang``, the language tag the
    file names ("" when it names none or no valid tag: a wrong ``lang`` would make screen
    readers speak the text in another language's voice), and ``dir``."""

    lang: str

    @property
    def dir(self) -> str:
        """``rtl`` for a language (or script subtag) written right to left. Otherwise
        ``auto``: each text takes its first strong character's direction, which a left to
        right language's text gets right, and a corpus naming no language needs."""
        tags = self.lang.split("-")
        script = next((t for t in tags[1:] if len(t) == 4), tags[0])
        return "rtl" if script in RIGHT_TO_LEFT else "auto"


def corpus_languages(corpus: Attributed) -> tuple[TextLanguage, TextLanguage]:
    """The corpus's source and target languages, as its page marks its texts. Only the
    language a file names: :data:`DEFAULT_LANGUAGE` is the detokenizer's fallback, not a
    fact about the corpus's texts."""
    tags = (
        _named_language(corpus, names).replace("_", "-")
        for names in (SOURCE_LANGUAGE_ATTRIBUTES, LANGUAGE_ATTRIBUTES)
    )
    source, target = (TextLanguage(t if _LANGUAGE_TAG.fullmatch(t) else "") for t in tags)
    return source, target


@cache
def _detokenizer(language: str) -> MosesDetokenizer:
    # Imported here: sacremoses costs every process that starts (commands, workers) about
    # half a second, and only new references need it (a server loads it at start: wsgi.py).
    from sacremoses import MosesDetokenizer

    return MosesDetokenizer(lang=language)


#: sacremoses' detokenizer keeps no state between calls, but is not documented as
#: thread-safe; the page's threads take turns.
_DETOKENIZE_LOCK = threading.Lock()


def _detokenize(tokens: tuple[str, ...], language: str) -> str:
    with _DETOKENIZE_LOCK:
        text: str = _detokenizer(language).detokenize(list(tokens))
    return text


def awer_counts(candidate: str, new_ref: str, *, cache: bool = True) -> tuple[int, int]:
    """(edits, new-reference length) of a candidate against its new reference (seed 001 §2.3)."""
    ref = words(new_ref, cache=cache)
    return distance(words(candidate, cache=cache), ref), len(ref)


#: The fields :func:`new_ref_counts` fills (a judgment's, beside its ``new_ref``).
NEW_REF_COUNTS = ("edits", "ref_length", "ter_edits", "ter_length")


def new_ref_counts(
    candidate: str, new_ref: str, *, cache: bool = True, hter: bool = False
) -> dict[str, int | None]:
    """What a judgment stores with its new reference: aWER's ``edits`` and
    ``ref_length`` (:func:`awer_counts`), and HTER's ``ter_edits`` and ``ter_length``
    (:func:`hter_counts`) with ``hter`` (an import, off the judge's clicks), else None:
    TER's shift search costs a click more than everything else it does, so the counts
    of a judge's new reference are filled once it is done, by a worker or by the figure
    that reads them first (:mod:`annotation.statistics.hter`)."""
    edits, length = awer_counts(candidate, new_ref, cache=cache)
    ter_edits, ter_length = hter_counts(candidate, new_ref, cache=cache) if hter else (None, None)
    return {
        "edits": edits,
        "ref_length": length,
        "ter_edits": ter_edits,
        "ter_length": ter_length,
    }


def hter_counts(candidate: str, new_ref: str, *, cache: bool = True) -> tuple[int, int]:
    """HTER's counts of a candidate against its new reference: ``(ter_edits,
    ter_length)``, the TER of the candidate with the new reference as its only reference.

    HTER compares the candidate's 13a words with the new reference's, both joined by
    spaces: TER splits at whitespace, and the raw candidate's "word," against the new
    reference's "word ," would be an edit no judge made (nor would "world." against
    "world ." of a readable new reference, :func:`readable_new_ref`).
    """
    ter = hter_row if cache else hter_row.__wrapped__
    ter_edits, ter_length = ter(
        " ".join(words(candidate, cache=cache)), " ".join(words(new_ref, cache=cache))
    )
    return int(ter_edits), int(ter_length)


def imported_new_ref_counts(pairs: Sequence[tuple[str, str]]) -> list[dict[str, int]]:
    """:func:`new_ref_counts` of many ``(candidate, new_ref)`` at once, as an import
    stores them: nothing cached (a file's texts do not come back), the HTER searches run
    together (:func:`metrics.human.hter_rows`)."""
    tokens = [(words(c, cache=False), words(r, cache=False)) for c, r in pairs]
    ter = hter_rows([(" ".join(c), " ".join(r)) for c, r in tokens])
    return [
        {
            "edits": distance(c, r),
            "ref_length": len(r),
            "ter_edits": int(ter_edits),
            "ter_length": int(ter_length),
        }
        for (c, r), (ter_edits, ter_length) in zip(tokens, ter, strict=True)
    ]


def reference_order(role: str, position: int) -> tuple[bool, int]:
    """Sort key of a sentence's references (a target's translator role and its position
    in the sentence): the first reference first, then file order."""
    return role != FIRST_REFERENCE, position


def nearest(distances: Sequence[int], n: int = 1) -> list[int]:
    """Indices of the ``n`` references nearest a candidate, given their edit distances in
    reference order: the smallest distance first, ties to the earlier reference."""
    return sorted(range(len(distances)), key=lambda i: (distances[i], i))[:n]
