"""Fixtures of the dashboard's tests: the judged corpora they share with the
statistics' tests (:mod:`annotation.tests.judged_corpora`)."""

from annotation.tests.judged_corpora import demo, hand_corpus, judged_demo, judged_hand

__all__ = ["demo", "hand_corpus", "judged_demo", "judged_hand"]
