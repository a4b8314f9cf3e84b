"""A corpus's texts as the metrics read them: each sentence's references (the first
reference first) and each system's candidates, gathered in three queries; every automatic
scoring starts from them. And its sentences' documents alone (:func:`sentence_documents`),
in one query."""

from __future__ import annotations

from dataclasses import dataclass

from annotation.models import Corpus, Target
from annotation.text import reference_order


@dataclass(frozen=True)
class CorpusTexts:
    """A corpus as the metrics see it.

    ``refs[k]`` are sentence k's references, the first reference first and the others in
    file order; ``systems[name][k]`` is the system's candidate ("" where it has none).
    """

    refs: list[tuple[str, ...]]
    systems: dict[str, list[str]]
    #: Each sentence's document id ("" without one): the weighted n-grams weigh words
    #: per document (one document when the corpus names none).
    docs: list[str]


def corpus_texts(corpus: Corpus) -> CorpusTexts:
    """All texts of a corpus and its sentences' documents in three queries."""
    translators = {t.pk: t for t in corpus.translators.all()}
    documents = list(corpus.sentences.values_list("position", "doc"))
    n = len(documents)
    refs: list[list[tuple[tuple[bool, int], str]]] = [[] for _ in range(n)]
    systems = {t.name: [""] * n for t in translators.values() if not t.is_reference}
    rows = Target.objects.filter(sentence__corpus=corpus).values_list(
        "sentence__position", "translator_id", "position", "text"
    )
    for k, translator_id, position, text in rows:
        translator = translators[translator_id]
        if translator.is_reference:
            refs[k].append((reference_order(translator.role, position), text))
        else:
            systems[translator.name][k] = text
    docs = [""] * n
    for k, doc in documents:
        docs[k] = doc or ""
    return CorpusTexts(
        refs=[tuple(text for _, text in sorted(seg)) for seg in refs], systems=systems, docs=docs
    )


def sentence_documents(corpus: Corpus) -> tuple[str, ...] | None:
    """Each sentence's document id in corpus order ("" without one), in one query; None
    when the sentences name fewer than two documents (nothing to stratify by: the
    estimates' strata, :mod:`annotation.dashboard.estimates`)."""
    found = corpus.sentences.order_by("position").values_list("doc", flat=True)
    docs = tuple(doc or "" for doc in found)
    return docs if len(set(docs)) >= 2 else None
