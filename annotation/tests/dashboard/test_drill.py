"""The drill-down (``annotation/dashboard/drill.py``): sort orders, the nearest reference
with its tie-break, argument checks."""

from __future__ import annotations

import random

import pytest
from django.template import engines

from annotation.corpora.imports import corpus_import
from annotation.dashboard import sources
from annotation.dashboard.drill import ShownWord, drill_down, words_markup
from annotation.dashboard.preprocessing import Preprocessing
from annotation.models import Corpus
from annotation.statistics import corpus_texts
from annotation.tests.boards import view_of
from annotation.tests.factories import DEMO_XML
from metrics.align import distance

pytestmark = pytest.mark.django_db


def test_drill_down_sorts_by_metric_and_by_difference(hand_corpus: Corpus) -> None:
    dash = view_of(hand_corpus)
    auto = dash.get(sources.chosen_statistics)

    worst = drill_down(dash, auto, "one-off", metric="wer", order="worst")
    diff = drill_down(dash, auto, "one-off", metric="bleu", other="perfect")

    assert [s.segment for s in worst.sentences] == [0, 1, 2, 3]  # ties keep the order
    assert {s.scores["wer"] for s in worst.sentences} == {25.0}
    assert all(s.sort_value is not None and s.sort_value < 0 for s in diff.sentences)
    first = worst.sentences[0]
    assert (first.reference_label, first.distance) == ("first reference", 1)
    assert [w.op for w in first.words] == ["match", "match", "match", "substitution"]
    assert (first.words[3].hyp_word, first.words[3].ref_word) == ("x", "d")


def test_drill_down_aligns_with_the_nearest_reference_first_on_ties(hand_corpus: Corpus) -> None:
    """ "i j k x" is one edit from both "i j k l" and "i j k": the first reference wins."""
    dash = view_of(hand_corpus)
    tie = drill_down(dash, dash.get(sources.chosen_statistics), "one-off", order="position")
    tie = tie.sentences[2]

    assert (tie.reference_label, tie.distance) == ("first reference", 1)

    corpus = corpus_import(source=DEMO_XML, name="demo").corpus
    texts = corpus_texts(corpus)
    pp = Preprocessing().preprocessor()
    dash = view_of(corpus)
    drill = drill_down(dash, dash.get(sources.chosen_statistics), "NiuTrans", order="position")
    labels = ["first reference", "multi reference"]
    for s in drill.sentences:
        hyp = pp.tokens(texts.systems["NiuTrans"][s.segment])
        d = [distance(hyp, pp.tokens(ref)) for ref in texts.refs[s.segment]]
        assert s.distance == min(d)
        assert s.reference_label == labels[d.index(min(d))]
        assert sum(w.op != "match" for w in s.words) == min(d)
    assert {s.reference_label for s in drill.sentences} == set(labels)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"metric": "size"}, "metric='size'"),
        ({"order": "random"}, "order='random'"),
        ({"other": "one-off"}, "other='one-off'"),
        ({"other": "nobody"}, "other='nobody'"),
    ],
)
def test_drill_down_refuses_bad_arguments(
    hand_corpus: Corpus, kwargs: dict[str, str], message: str
) -> None:
    dash = view_of(hand_corpus)
    with pytest.raises(ValueError, match=message):
        drill_down(dash, dash.get(sources.chosen_statistics), "one-off", **kwargs)


#: The template each word was once rendered with (one include per word): the markup
#: words_markup builds in one string must stay exactly this.
WORD_TEMPLATE = (
    '{% if w.op == "match" %}<span class="w">{{ w.hyp_word }}</span> '
    '{% elif w.op == "missing" %}<span class="e e-missing" data-op="missing" '
    'title="{{ w.title }}">–<sub>{{ w.ref_word }}</sub></span> '
    '{% elif w.op == "extra" %}<span class="e e-extra" data-op="extra" '
    'title="{{ w.title }}">{{ w.hyp_word }}</span> '
    '{% else %}<span class="e e-substitution" data-op="substitution" '
    'title="{{ w.title }}">{{ w.hyp_word }}<sub>{{ w.ref_word }}</sub></span> {% endif %}\n'
)


def test_the_words_markup_is_the_templates_escaped_as_templates_escape() -> None:
    rng = random.Random(3)
    chars = ["a", "<", ">", "&", '"', "'", "é", "–", "x"]
    shown = []
    for _ in range(500):
        op = rng.choice(["match", "missing", "extra", "substitution"])
        hyp = "".join(rng.choice(chars) for _ in range(rng.randint(1, 4)))
        ref = hyp if op == "match" else "".join(rng.choice(chars) for _ in range(3))
        shown.append(
            ShownWord(op, None if op == "missing" else hyp, None if op == "extra" else ref)
        )
    template = engines["django"].from_string(WORD_TEMPLATE)

    assert words_markup(shown) == "".join(template.render({"w": w}) for w in shown)
