"""Test helpers for systems imported as one document (seed 002): the document a speech
translation system would give, the candidates it was cut into, and a corpus with one."""

from __future__ import annotations

from annotation.corpora.systems import corpus_add_system
from annotation.models import Corpus, Target, Translator
from annotation.statistics import corpus_texts


def unsegmented_document(corpus: Corpus, system: str = "NiuTrans") -> list[str]:
    """A system's output as a speech-translation system gives it: the words of all its
    candidates, broken into lines of seven words that ignore the sentences."""
    joined = " ".join(corpus_texts(corpus).systems[system]).split()
    return [" ".join(joined[k : k + 7]) for k in range(0, len(joined), 7)]


def candidates_of(corpus: Corpus, system: str) -> list[str]:
    """A system's candidates in sentence order."""
    return list(
        Target.objects.filter(sentence__corpus=corpus, translator__name=system)
        .order_by("sentence__position")
        .values_list("text", flat=True)
    )


def add_speech(corpus: Corpus, system: str = "NiuTrans") -> Translator:
    """``system``'s words as one document, added as "speech" (re-segmented); the corpus
    is scored again when something reads its figures."""
    corpus_add_system(
        corpus=corpus,
        name="speech",
        lines=unsegmented_document(corpus, system),
        filename="speech.txt",
        unsegmented=True,
        score=False,
    )
    return Translator.objects.get(corpus=corpus, name="speech")
