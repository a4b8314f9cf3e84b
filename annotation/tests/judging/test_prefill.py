"""ESA with pre-filled spans (issue 41, point 3): the suggestions a judge finds marked when
first opening a candidate, from the aWER alignment or an imported file, written once and
stored beside the judge's own spans; what became of each (kept, edited, removed) per
judge and source on the campaign page, in queries that do not grow with the corpus."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from annotation.campaigns.suggestions import ALL_JUDGES, SuggestionsKept, suggestions_kept
from annotation.changes import candidates_changed
from annotation.corpora.span_imports import imported_spans_import
from annotation.judging.changes import judgment_accept_next, judgment_undo
from annotation.judging.esa import (
    judgment_change_span,
    judgment_remove_span,
    judgment_set_esa_score,
)
from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, Span, User
from annotation.models.corpus import Protocol
from annotation.tests.factories import import_xml, page_queries, target_of
from metrics.error_spans import MarkedSpan, SuggestionCounts

pytestmark = pytest.mark.django_db

#: sysA's candidate against the reference: "dog" another word (major), "the" missing
#: (one word: a minor [MISSING]); sysB's equals the reference.
REFERENCE = "The cat sleeps on the mat ."
SYS_A = "The dog sleeps on mat ."
DOG = MarkedSpan(4, 7, "major")
MISSING = MarkedSpan(23, 23, "minor", missing=True)


def prefill_corpus(judge: User, sentences: int = 2, protocol: str = Protocol.ESA_PREFILL) -> Corpus:
    body = "".join(
        f'<sentence id="s{k}" doc="d"><source>src {k}</source>'
        f'<eval translator="first reference"><target>{REFERENCE}</target></eval>'
        f'<eval translator="sysA"><target>{SYS_A}</target></eval>'
        f'<eval translator="sysB"><target>{REFERENCE}</target></eval></sentence>'
        for k in range(sentences)
    )
    corpus = import_xml(f"<evalTrans>{body}</evalTrans>", f"prefill-{sentences}", judge)
    corpus.protocol = protocol
    corpus.save(update_fields=["protocol"])
    return corpus


def rows(judgment: Judgment) -> list[tuple[str, str, MarkedSpan, MarkedSpan | None]]:
    """(origin, source, span, the suggestion it names) of every span row, in order."""
    return [
        (r.origin, r.source, r.marked, r.suggestion.marked if r.suggestion else None)
        for r in Span.objects.filter(judgment=judgment).select_related("suggestion")
    ]


def test_a_judge_first_opening_a_candidate_finds_the_alignments_suggestions_marked(
    judge: User, judge_client: Client
) -> None:
    corpus = prefill_corpus(judge)
    j = judgment_open(user=judge, target=target_of(corpus, "sysA"))
    assert rows(j) == [
        ("judge", "", DOG, DOG),
        ("judge", "", MISSING, MISSING),
        ("suggested", "awer", DOG, None),
        ("suggested", "awer", MISSING, None),
    ]
    html = judge_client.get(reverse("annotation:judgment", args=[j.pk])).content.decode()
    assert html.count('data-suggested="true"') == 2
    assert 'id="prefill-note"' in html
    # the same candidate opened again: written once
    assert judgment_open(user=judge, target=target_of(corpus, "sysA")).pk == j.pk
    assert Span.objects.filter(judgment=j).count() == 4


def test_a_candidate_equal_to_its_reference_gets_no_suggestion(judge: User) -> None:
    j = judgment_open(user=judge, target=target_of(prefill_corpus(judge), "sysB"))
    assert rows(j) == []


def test_plain_esa_suggests_nothing(judge: User) -> None:
    corpus = prefill_corpus(judge, protocol=Protocol.ESA)
    assert rows(judgment_open(user=judge, target=target_of(corpus, "sysA"))) == []


def test_an_imported_file_takes_the_place_of_the_alignment_for_candidates_not_yet_opened(
    judge: User,
) -> None:
    corpus = prefill_corpus(judge)
    opened = judgment_open(user=judge, target=target_of(corpus, "sysA", 0))
    spans = [{"start": 8, "end": 14, "severity": "critical"}]
    data = "".join(
        json.dumps({"system": "sysA", "segment": f"s{k}", "spans": spans}) + "\n" for k in (0, 1)
    )
    assert imported_spans_import(corpus=corpus, data=data.encode()) == {"sysA": 2}
    later = judgment_open(user=judge, target=target_of(corpus, "sysA", 1))
    sleeps = MarkedSpan(8, 14, "major")
    assert rows(later) == [("judge", "", sleeps, sleeps), ("suggested", "imported", sleeps, None)]
    assert {r[1] for r in rows(opened)} == {"", "awer"}  # what its judge was shown stays


def test_a_candidate_whose_text_changed_loses_its_imported_spans(judge: User) -> None:
    corpus = prefill_corpus(judge)
    spans = [{"start": 8, "end": 14, "severity": "major"}]
    data = "".join(
        json.dumps({"system": "sysA", "segment": k, "spans": spans}) + "\n" for k in (1, 2)
    )
    imported_spans_import(corpus=corpus, data=data.encode())
    changed = target_of(corpus, "sysA", 0)
    changed.text = "The dog sleeps on mats ."
    changed.save(update_fields=["text"])
    candidates_changed(corpus.pk, [changed])
    assert rows(judgment_open(user=judge, target=changed))[-2:] == [
        ("suggested", "awer", DOG, None),
        ("suggested", "awer", MarkedSpan(18, 22, "minor"), None),
    ]  # the alignment's: the file's spans were of the old text
    assert rows(judgment_open(user=judge, target=target_of(corpus, "sysA", 1)))[-1][1] == (
        "imported"
    )


def test_what_the_judge_did_with_each_suggestion_is_counted_per_judge_and_source(
    judge: User,
) -> None:
    corpus = prefill_corpus(judge)
    j = judgment_open(user=judge, target=target_of(corpus, "sysA"))
    j = judgment_remove_span(judgment=j, user=judge, version=j.version, span=MISSING)
    j = judgment_set_esa_score(judgment=j, user=judge, version=j.version, score=60)
    assert suggestions_kept(corpus) == []  # not accepted yet: not decided
    judgment_accept_next(judgment=j, user=judge, version=j.version, shown=False)
    assert suggestions_kept(corpus) == [
        SuggestionsKept("judge", "awer", SuggestionCounts(kept=1, removed=1)),
        SuggestionsKept(ALL_JUDGES, "awer", SuggestionCounts(kept=1, removed=1)),
    ]
    # edited: another severity on the same characters keeps the link
    j = Judgment.objects.get(pk=j.pk)
    j = judgment_change_span(
        judgment=j, user=judge, version=j.version, span=DOG, to=MarkedSpan(4, 7, "minor")
    )
    assert suggestions_kept(corpus)[0].counts == SuggestionCounts(edited=1, removed=1)


def test_undo_of_a_removal_brings_the_suggestion_back_as_kept(judge: User) -> None:
    corpus = prefill_corpus(judge)
    j = judgment_open(user=judge, target=target_of(corpus, "sysA"))
    j = judgment_remove_span(judgment=j, user=judge, version=j.version, span=DOG)
    assert [r for r in rows(j) if r[0] == "judge"] == [("judge", "", MISSING, MISSING)]
    judgment_undo(judgment=j, user=judge, version=j.version)
    assert ("judge", "", DOG, DOG) in rows(j)


def done_everywhere(corpus: Corpus, judge: User) -> None:
    """The judge's every candidate opened (suggestions written) and accepted."""
    for target in corpus.sentences.all():
        for name in ("sysA", "sysB"):
            j = judgment_open(user=judge, target=target_of(corpus, name, target.position))
            Judgment.objects.filter(pk=j.pk).update(state=Judgment.State.DONE, esa_score=50)


def test_the_campaign_pages_table_costs_the_same_queries_whatever_the_corpus_size(
    judge: User, lead: User, lead_client: Client, django_assert_num_queries: object
) -> None:
    queries = []
    for sentences in (2, 6):
        corpus = prefill_corpus(judge, sentences)
        corpus.leads.add(lead)
        done_everywhere(corpus, judge)
        with django_assert_num_queries(1):  # type: ignore[operator]
            kept = suggestions_kept(corpus)
        assert kept[-1].counts == SuggestionCounts(kept=2 * sentences)
        url = reverse("campaigns:corpus", args=[corpus.pk])
        html = lead_client.get(url).content.decode()
        assert 'id="suggestions-kept"' in html
        assert f'data-judges="all" data-source="awer" data-suggested="{2 * sentences}"' in html
        assert 'data-kept-share="1.0"' in html
        queries.append(page_queries(lead_client, url))
    assert queries[0] == queries[1]
