"""Test helpers for the grown reference pool: the demo corpus judged through the judging
services so that its pool grows, and which systems that moves."""

from __future__ import annotations

from annotation.judging.start import judgment_open
from annotation.models import Corpus, User
from annotation.statistics import corpus_texts
from annotation.tests.factories import finish, target_of

#: The demo system whose candidates the judges take as new references, and the one whose
#: candidates they correct into them: the pool then holds the first one's words.
POOL_ACCEPTED, POOL_CORRECTED = "Online-W", "NiuTrans"
#: The demo sentences whose pool grows.
POOL_GROWN = range(12)


def grow_demo_pool(corpus: Corpus, ann: User, bob: User) -> Corpus:
    """Judge the demo corpus through the services so that its pool grows: in each of the
    first 12 sentences "ann" turns NiuTrans's candidate into Online-W's, "bob" does the
    same for sentences 0–3 (counted once in the pool), and for sentence 5 "bob" turns
    IIE-MT's candidate into the first reference (no new reference either)."""
    corpus.judges.add(ann, bob)
    texts = corpus_texts(corpus)
    for k in POOL_GROWN:
        accepted = texts.systems[POOL_ACCEPTED][k]
        for user, sser in ((ann, 8), (bob, 7))[: 2 if k < 4 else 1]:
            judgment = judgment_open(user=user, target=target_of(corpus, POOL_CORRECTED, k))
            finish(judgment, user, accepted, sser)
    judgment = judgment_open(user=bob, target=target_of(corpus, "IIE-MT", 5))
    finish(judgment, bob, texts.refs[5][0], 6)
    return corpus
