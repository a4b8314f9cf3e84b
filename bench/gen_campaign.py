"""A WMT-size campaign in the database of ``DATABASE_URL``, written straight through the
ORM in bulk (what issue 37's scale figures are measured on: ``bench/campaign.py``).

``corpora`` corpora (language pairs) of ``sentences`` sentences in documents of 5–40
sentences × ``references`` references × ``systems`` systems, words drawn from the TED
demo corpus; ``annotators`` judge accounts, each assigned to ``per_annotator`` corpora
(language pairs drawn at random, every corpus judged by about the same number); a lead.
The texts are not realistic MT output (the import's benchmark has those,
``bench/gen_corpus.py``): the campaign's pages count rows, never read a candidate's
words, and writing 345,000 targets in bulk takes seconds where importing 15 files takes
minutes.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

LEAD = "bench-lead"
ANNOTATOR_PREFIX = "bench-annotator"
LANGUAGES = (
    "de",
    "cs",
    "ja",
    "zh",
    "ru",
    "uk",
    "he",
    "is",
    "hi",
    "et",
    "fr",
    "es",
    "pl",
    "ko",
    "ar",
)


@dataclass(frozen=True)
class CampaignSize:
    corpora: int = 15
    sentences: int = 1000
    systems: int = 20
    references: int = 3
    annotators: int = 200
    per_annotator: int = 2


def _words(rng: random.Random, vocabulary: tuple[str, ...]) -> str:
    return " ".join(rng.choice(vocabulary) for _ in range(rng.randint(5, 30)))


def build_campaign(size: CampaignSize, *, name: str = "bench campaign", seed: int = 0) -> Any:
    """The campaign (its rules as a new campaign has them: every annotator on every item,
    the lead sets the split), its corpora and accounts; returns the campaign."""
    from django.contrib.auth.hashers import make_password
    from django.db import transaction

    from annotation.models import Campaign, Corpus, User
    from bench.gen_corpus import Vocabulary

    rng = random.Random(seed)
    vocabulary = Vocabulary.from_corpus().words
    with transaction.atomic():
        campaign = Campaign.objects.create(name=name)
        lead = User.objects.create(username=LEAD, role=User.Role.LEAD, password=make_password(LEAD))
        corpora = []
        for c in range(size.corpora):
            pair = f"en-{LANGUAGES[c % len(LANGUAGES)]}" + (f"-{c}" if c >= len(LANGUAGES) else "")
            corpus = Corpus.objects.create(
                name=f"bench {pair}",
                campaign=campaign,
                n_sentences=size.sentences,
                n_systems=size.systems,
                n_candidates=size.sentences * size.systems,
            )
            corpus.leads.add(lead)
            _write_corpus(corpus, size, rng, vocabulary)
            corpora.append(corpus)
        password = make_password(None)  # unusable: annotators come by link
        annotators = User.objects.bulk_create(
            User(username=f"{ANNOTATOR_PREFIX}-{k:03d}", password=password)
            for k in range(size.annotators)
        )
        through = Corpus.judges.through
        rows = []
        for k, annotator in enumerate(annotators):
            first = k % size.corpora  # every corpus judged by about as many annotators
            chosen = {first, *rng.sample(range(size.corpora), size.per_annotator - 1)}
            rows += [through(corpus_id=corpora[i].pk, user_id=annotator.pk) for i in chosen]
        through.objects.bulk_create(rows)
    return campaign


def _write_corpus(
    corpus: Any, size: CampaignSize, rng: random.Random, vocabulary: tuple[str, ...]
) -> None:
    from annotation.models import Sentence, Target, Translator
    from annotation.queue_order import queue_positions

    roles = [Translator.Role.FIRST_REFERENCE] + [Translator.Role.REFERENCE] * (size.references - 1)
    names = [f"ref{k}" for k in range(size.references)] + [
        f"sys{k:02d}" for k in range(size.systems)
    ]
    translators = Translator.objects.bulk_create(
        Translator(corpus=corpus, name=n, role=r, position=k)
        for k, (n, r) in enumerate(
            zip(names, roles + [Translator.Role.SYSTEM] * size.systems, strict=True)
        )
    )
    docs: list[str] = []
    while len(docs) < size.sentences:
        docs += [f"doc{len(set(docs))}"] * rng.randint(5, 40)
    docs = docs[: size.sentences]
    places = queue_positions(docs, seed=corpus.name)
    sentences = Sentence.objects.bulk_create(
        Sentence(
            corpus=corpus,
            position=i,
            doc=docs[i],
            source=_words(rng, vocabulary),
            queue_position=places[i],
        )
        for i in range(size.sentences)
    )
    Target.objects.bulk_create(
        (
            Target(sentence=s, translator=t, position=k, text=_words(rng, vocabulary))
            for s in sentences
            for k, t in enumerate(translators)
        ),
        batch_size=5000,
    )


def timed(fn: Any, *args: Any, **kwargs: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start
