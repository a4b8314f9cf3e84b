"""Side-by-side judging's pages (issue 42, point 1), through Django's test client: a
judge's balanced queue, a candidate's change answered with its panel alone, the
preference, accept & next keeping what was typed, and the lead's panel of figures."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

import pytest
from django.http import HttpResponse
from django.test import Client

from annotation.models import Comparison, Corpus, Judgment, SideBySide, Span, User
from annotation.models.corpus import Protocol
from annotation.sidebyside.actions import comparison_accept, comparison_judgments
from annotation.sidebyside.queue import judge_seed, next_comparison
from annotation.tests.factories import import_xml, page_queries
from annotation.tests.sidebyside.corpora import side_by_side_corpus, three_systems_xml
from metrics.pairing import draw_screens

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def corpus(judge: User) -> Corpus:
    return side_by_side_corpus(judge)


def first_screen(client: Client, corpus: Corpus) -> Comparison:
    response = client.get(f"/corpora/{corpus.pk}/side-by-side/")
    assert response.status_code == 302
    pk = int(re.search(r"/comparisons/(\d+)/", response["Location"])[1])
    return Comparison.objects.select_related("setting").get(pk=pk)


def test_every_pair_of_systems_meets_equally_often_in_the_judges_queue(
    judge_client: Client, judge: User, corpus: Corpus
) -> None:
    first_screen(judge_client, corpus)
    queue = list(
        Comparison.objects.filter(judge=judge).select_related(
            "left__translator", "right__translator"
        )
    )
    assert len(queue) == 6
    met = Counter(frozenset((c.left.translator.name, c.right.translator.name)) for c in queue)
    assert sorted(met.values()) == [2, 2, 2]
    setting = SideBySide.objects.get(corpus=corpus)
    assert {c.seed for c in queue} == {judge_seed(setting, judge)}
    assert [c.swapped for c in queue] == [
        s.swapped for s in draw_screens(_available(corpus), per_screen=2, seed=queue[0].seed)
    ]


def _available(corpus: Corpus) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for sentence in corpus.sentences.order_by("position"):
        out[sentence.pk] = [
            t.translator_id
            for t in sentence.targets.filter(translator__role="system").order_by(
                "translator__position"
            )
        ]
    return out


def test_the_screen_shows_the_source_and_two_candidates_in_the_order_drawn(
    judge_client: Client, corpus: Corpus
) -> None:
    comparison = first_screen(judge_client, corpus)
    html = judge_client.get(f"/comparisons/{comparison.pk}/").content.decode()
    assert 'id="sbs-panel-a"' in html
    assert 'id="sbs-panel-b"' in html
    assert 'id="sbs-panel-c"' not in html
    assert f'data-swapped="{str(comparison.swapped).lower()}"' in html
    left, right = comparison.left, comparison.right
    assert html.index(f">{left.text.split()[0]}<") < html.index('id="sbs-panel-b"')
    assert right.sentence.source in html
    assert 'id="sbs-preference"' in html


def mark(
    client: Client, comparison: Comparison, judgment: Judgment, start: int, end: int, severity: str
) -> HttpResponse:
    """Mark ``judgment``'s characters ``start``–``end`` from its panel, as htmx posts."""
    url = f"/comparisons/{comparison.pk}/judgments/{judgment.pk}/mark-span/"
    return client.post(url, {"start": start, "end": end, "severity": severity}, **HTMX)


def test_a_span_marked_in_one_panel_answers_with_that_panel_alone(
    judge_client: Client, judge: User, corpus: Corpus
) -> None:
    comparison = first_screen(judge_client, corpus)
    a, b = comparison_judgments(comparison=comparison, user=judge)
    # one character: B is whichever candidate the judge's draw put there, and a span
    # over a blank would be trimmed
    response = mark(judge_client, comparison, b, 0, 1, "major")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="sbs-panel-b"' in html
    assert 'id="sbs-panel-a"' not in html
    assert 'class="piece err-major"' in html
    assert list(Span.objects.filter(judgment=b).values_list("start", "end", "severity")) == [
        (0, 1, "major")
    ]
    assert not Span.objects.filter(judgment=a).exists()
    plain = judge_client.post(
        f"/comparisons/{comparison.pk}/judgments/{a.pk}/mark-span/",
        {"start": 0, "end": 1, "severity": "minor"},
    )
    assert plain.status_code == 303
    assert plain["Location"] == f"/comparisons/{comparison.pk}/"


def test_a_refused_span_says_why_in_its_panel(
    judge_client: Client, judge: User, corpus: Corpus
) -> None:
    comparison = first_screen(judge_client, corpus)
    a, _ = comparison_judgments(comparison=comparison, user=judge)
    url = f"/comparisons/{comparison.pk}/judgments/{a.pk}/mark-span/"
    response = judge_client.post(url, {"start": 0, "end": 999, "severity": "major"}, **HTMX)
    assert response.status_code == 422
    assert 'role="alert"' in response.content.decode()


def test_the_preference_is_saved_per_screen_and_judge(judge_client: Client, corpus: Corpus) -> None:
    comparison = first_screen(judge_client, corpus)
    response = judge_client.post(
        f"/comparisons/{comparison.pk}/preference/", {"preference": "b"}, **HTMX
    )
    assert response.status_code == 200
    assert (
        'id="prefer-b" data-action="prefer-b" class="sbs-choice pressed" aria-pressed="true"'
        in (response.content.decode())
    )
    assert Comparison.objects.get(pk=comparison.pk).preference == "b"
    taken_back = judge_client.post(f"/comparisons/{comparison.pk}/preference/", {"preference": ""})
    assert taken_back.status_code == 303
    assert Comparison.objects.get(pk=comparison.pk).preference == ""
    refused = judge_client.post(f"/comparisons/{comparison.pk}/preference/", {"preference": "c"})
    assert refused.status_code == 400


def accepted(
    client: Client, judge: User, corpus: Corpus, score_a: str, score_b: str, preference: str
) -> tuple[Comparison, list[Judgment], HttpResponse]:
    """The judge's first screen, accepted with the scores typed and the preference set."""
    comparison = first_screen(client, corpus)
    a, b = comparison_judgments(comparison=comparison, user=judge)
    response = client.post(
        f"/comparisons/{comparison.pk}/accept/",
        {f"score-{a.pk}": score_a, f"score-{b.pk}": score_b, "preference": preference},
    )
    return comparison, [a, b], response


def test_accept_saves_the_typed_scores_and_preference_and_goes_to_the_next_screen(
    judge_client: Client, judge: User, corpus: Corpus
) -> None:
    comparison, (a, b), response = accepted(judge_client, judge, corpus, "80", "35", "a")
    assert response.status_code == 303
    assert response["Location"] == f"/corpora/{corpus.pk}/side-by-side/"
    done = Comparison.objects.get(pk=comparison.pk)
    assert (done.state, done.preference) == ("done", "a")
    assert done.finished_at is not None
    assert {j.pk: (j.state, j.esa_score) for j in Judgment.objects.filter(pk__in=[a.pk, b.pk])} == {
        a.pk: ("done", 80),
        b.pk: ("done", 35),
    }
    assert first_screen(judge_client, corpus).position == 1


def test_accept_without_a_score_is_refused_but_keeps_what_was_typed(
    judge_client: Client, judge: User, corpus: Corpus
) -> None:
    comparison, (a, _), response = accepted(judge_client, judge, corpus, "70", "", "same")
    assert response.status_code == 422
    assert "Give an ESA score" in response.content.decode()
    assert Judgment.objects.get(pk=a.pk).esa_score == 70
    assert Judgment.objects.get(pk=a.pk).state == "pending"
    assert Comparison.objects.get(pk=comparison.pk).preference == "same"
    assert 'value="70"' in response.content.decode()


def test_another_judge_and_an_anonymous_visitor_never_see_a_judges_screen(
    client: Client, judge_client: Client, user_factory, corpus: Corpus
) -> None:
    comparison = first_screen(judge_client, corpus)
    client.logout()  # the judge's client is this client, logged in
    assert client.get(f"/comparisons/{comparison.pk}/").status_code == 302
    other = user_factory("ben")
    corpus.judges.add(other)
    client.force_login(other)
    assert client.get(f"/comparisons/{comparison.pk}/").status_code == 404
    assert (
        client.post(f"/comparisons/{comparison.pk}/preference/", {"preference": "a"}).status_code
        == 404
    )


def test_the_last_screen_accepted_leads_to_all_done(
    judge_client: Client, judge: User, corpus: Corpus
) -> None:
    setting = SideBySide.objects.get(corpus=corpus)
    while (comparison := next_comparison(setting=setting, user=judge)) is not None:
        scores = {j.pk: 50 for j in comparison_judgments(comparison=comparison, user=judge)}
        comparison_accept(comparison=comparison, user=judge, scores=scores, preference=None)
    response = judge_client.get(f"/corpora/{corpus.pk}/side-by-side/")
    assert response.status_code == 200
    assert 'id="sbs-all-done"' in response.content.decode()


def test_a_corpus_not_judged_side_by_side_has_no_side_by_side_queue(
    judge_client: Client, judge: User
) -> None:
    corpus = import_xml(three_systems_xml(), "plain", judge)
    assert judge_client.get(f"/corpora/{corpus.pk}/side-by-side/").status_code == 404


def test_the_lead_turns_side_by_side_on_for_aWER_with_IER_and_for_ESA(
    lead_client: Client, judge: User
) -> None:
    awer = import_xml(three_systems_xml(), "awer", judge)
    Corpus.objects.filter(pk=awer.pk).update(ier_enabled=True)
    made = lead_client.post(f"/corpora/{awer.pk}/side-by-side/figures/", {"per_screen": "2"})
    assert made.status_code == 303
    assert SideBySide.objects.get(corpus=awer).per_screen == 2
    esa = import_xml(three_systems_xml(), "esa", judge)
    esa.protocol = Protocol.ESA
    esa.save(update_fields=["protocol"])
    made = lead_client.post(
        f"/corpora/{esa.pk}/side-by-side/figures/", {"per_screen": "3", "asks_preference": "on"}
    )
    assert made.status_code == 303
    setting = SideBySide.objects.get(corpus=esa)
    assert (setting.per_screen, setting.asks_preference) == (3, True)


def test_judges_never_see_the_leads_panel(judge_client: Client, corpus: Corpus) -> None:
    assert judge_client.get(f"/corpora/{corpus.pk}/side-by-side/figures/").status_code == 404


def judged_by(corpus: Corpus, user: User, prefer: Callable[[Comparison], str]) -> None:
    """``user`` accepts every screen of ``corpus``, preferring as ``prefer`` says."""
    setting = SideBySide.objects.get(corpus=corpus)
    while (comparison := next_comparison(setting=setting, user=user)) is not None:
        scores = {j.pk: 50 for j in comparison_judgments(comparison=comparison, user=user)}
        preference = prefer(comparison)
        comparison_accept(comparison=comparison, user=user, scores=scores, preference=preference)


def test_the_panel_shows_win_rates_and_a_ranking(
    lead_client: Client, judge: User, corpus: Corpus
) -> None:
    """The judge prefers alpha to the others and finds beta and gamma the same."""

    def prefer(comparison: Comparison) -> str:
        left, right = comparison.left.translator.name, comparison.right.translator.name
        if "alpha" not in (left, right):
            return "same"
        return "a" if left == "alpha" else "b"

    judged_by(corpus, judge, prefer)
    html = lead_client.get(f"/corpora/{corpus.pk}/side-by-side/figures/").content.decode()
    assert 'data-first="alpha" data-second="beta" data-rate="1.0"' in html
    assert 'data-first="alpha" data-second="gamma" data-rate="1.0"' in html
    assert 'data-first="beta" data-second="gamma" data-rate="0.5"' in html
    ranks = re.findall(r'data-system="(\w+)" data-rank="(\d)"', html)
    assert ranks[0] == ("alpha", "1")
    assert {name for name, _ in ranks[1:]} == {"beta", "gamma"}
    assert re.findall(r'class="sbs-plan"[^>]* data-verdict="([\w-]+)"', html) == ["too-few"] * 3


def test_the_panel_plans_the_comparisons_each_pair_needs(lead_client: Client, user_factory) -> None:
    """Two systems, two judges, six sources: the pair can meet 12 times at most, and
    does. Alpha wins 8, beta 4 (ana prefers alpha on every source, ben on the first
    two): t = (2/3 − ½) √12 / 0.4924 = 1.17, under t₀.₉₇₅ on 11 degrees of freedom
    (2.20), so not told apart, and no comparison is left to come: not separable."""
    ana, ben = user_factory("ana"), user_factory("ben")
    corpus = side_by_side_corpus(ana, ben, systems=2)
    setting = SideBySide.objects.get(corpus=corpus)
    for user, alpha_wins in ((ana, 6), (ben, 2)):
        while (comparison := next_comparison(setting=setting, user=user)) is not None:
            alpha_won = comparison.sentence.position < alpha_wins
            left_is_alpha = comparison.left.translator.name == "alpha"
            scores = {j.pk: 50 for j in comparison_judgments(comparison=comparison, user=user)}
            preference = "a" if alpha_won == left_is_alpha else "b"
            comparison_accept(
                comparison=comparison, user=user, scores=scores, preference=preference
            )

    html = lead_client.get(f"/corpora/{corpus.pk}/side-by-side/figures/").content.decode()

    assert (
        'class="sbs-plan" data-first="alpha" data-second="beta" data-n="12" '
        'data-verdict="not-separable" data-needed="" data-more=""'
    ) in html


def test_the_panel_shows_the_judges_agreement_on_preferences(
    lead_client: Client, user_factory
) -> None:
    """Two systems: both judges see every sentence's pair; they agree on every one
    (alpha better, but the same on the first source), so κ is 1 over six items."""
    ana, ben = user_factory("ana"), user_factory("ben")
    corpus = side_by_side_corpus(ana, ben, systems=2)
    first = corpus.sentences.get(position=0).source

    for user in (ana, ben):
        setting = SideBySide.objects.get(corpus=corpus)
        while (comparison := next_comparison(setting=setting, user=user)) is not None:
            left = comparison.left.translator.name
            same = comparison.sentence.source == first
            scores = {j.pk: 50 for j in comparison_judgments(comparison=comparison, user=user)}
            preference = "same" if same else "a" if left == "alpha" else "b"
            comparison_accept(
                comparison=comparison, user=user, scores=scores, preference=preference
            )
    html = lead_client.get(f"/corpora/{corpus.pk}/side-by-side/figures/").content.decode()
    assert 'id="sbs-agreement" data-kappa="1.0" data-observed="1.0" data-items="6"' in html
    assert 'data-first="alpha" data-second="beta" data-rate="0.9166666666666666"' in html


def test_the_home_page_leads_the_judge_to_side_by_side_and_the_lead_to_its_panel(
    judge: User, lead: User, corpus: Corpus
) -> None:
    import_xml(three_systems_xml(), "plain", judge)
    judge_client, lead_client = Client(), Client()
    judge_client.force_login(judge)
    lead_client.force_login(lead)
    html = judge_client.get("/").content.decode()
    assert f'href="/corpora/{corpus.pk}/side-by-side/" data-action="side-by-side"' in html
    assert html.count('data-action="side-by-side"') == 1
    lead_html = lead_client.get("/").content.decode()
    assert f'href="/corpora/{corpus.pk}/side-by-side/figures/"' in lead_html
    assert lead_html.count('data-action="side-by-side-panel"') == 2  # the aWER corpus's too


@pytest.mark.parametrize("per_screen", [2, 3])
def test_a_screen_costs_a_fixed_number_of_queries_per_candidate(
    judge_client: Client, corpus: Corpus, per_screen: int
) -> None:
    SideBySide.objects.filter(corpus=corpus).update(per_screen=per_screen)
    comparison = first_screen(judge_client, corpus)
    page_queries(judge_client, f"/comparisons/{comparison.pk}/")  # judgments opened
    # the session, the judge, the screen, its targets, the source's document, the queue's
    # counts; per candidate its judgment opened and loaded, its ``open`` event, and what
    # the ESA page reads of it (its spans, its place in the order, its document)
    assert page_queries(judge_client, f"/comparisons/{comparison.pk}/") == 6 + 6 * per_screen


def test_an_mqm_corpus_side_by_side_marks_categories_and_needs_no_score(
    judge_client: Client, judge: User
) -> None:
    corpus = side_by_side_corpus(judge, name="mqm", protocol=Protocol.MQM)
    comparison = first_screen(judge_client, corpus)
    html = judge_client.get(f"/comparisons/{comparison.pk}/").content.decode()
    assert 'id="mqm-category"' in html
    assert 'class="sbs-score"' not in html
    a, b = comparison_judgments(comparison=comparison, user=judge)
    url = f"/comparisons/{comparison.pk}/judgments/{a.pk}/mark-span/"
    marked = {"start": 0, "end": 3, "severity": "major", "category": "Fluency/Spelling"}
    panel = judge_client.post(url, marked, **HTMX).content.decode()
    assert 'class="sbs-mqm" data-points="5.0"' in panel
    accept = judge_client.post(f"/comparisons/{comparison.pk}/accept/", {"preference": "b"})
    assert accept.status_code == 303
    assert set(Judgment.objects.filter(pk__in=[a.pk, b.pk]).values_list("state", flat=True)) == {
        "done"
    }


def test_the_ranking_follows_every_new_preference(
    lead_client: Client, judge: User, corpus: Corpus
) -> None:
    """The ranking's fits are kept by the outcomes they read: every preference turned
    round after a view turns the next view's strengths round. Alpha wins every screen it
    is on, whichever side the draw put it (a preference by side alone could leave every
    strength near nought, as the draw's seed decides)."""

    def alpha_wins(comparison: Comparison) -> str:
        return "a" if comparison.left.translator.name == "alpha" else "b"

    judged_by(corpus, judge, alpha_wins)
    url = f"/corpora/{corpus.pk}/side-by-side/figures/"
    before = strengths(lead_client.get(url).content.decode())
    assert strengths(lead_client.get(url).content.decode()) == before
    turned = {"a": Comparison.Preference.B, "b": Comparison.Preference.A}
    for comparison in Comparison.objects.filter(judge=judge):
        comparison.preference = turned[comparison.preference]
        comparison.save(update_fields=["preference"])
    after = strengths(lead_client.get(url).content.decode())
    assert after == pytest.approx({name: -value for name, value in before.items()})
    assert any(abs(value) > 0.1 for value in before.values())


def strengths(html: str) -> dict[str, float]:
    pattern = r'data-system="(\w+)" data-rank="\d" data-strength="([^"]+)"'
    return {name: float(value) for name, value in re.findall(pattern, html)}


def test_a_panel_undoes_and_redoes_its_own_candidates_changes(
    judge_client: Client, judge: User, corpus: Corpus
) -> None:
    comparison = first_screen(judge_client, corpus)
    a, b = comparison_judgments(comparison=comparison, user=judge)
    base = f"/comparisons/{comparison.pk}/judgments/{a.pk}"
    mark(judge_client, comparison, a, 0, 3, "minor")
    mark(judge_client, comparison, b, 0, 1, "major")
    undone = judge_client.post(f"{base}/undo/", **HTMX).content.decode()
    assert 'data-action="redo">' in undone  # enabled
    assert not Span.objects.filter(judgment=a).exists()
    assert Span.objects.filter(judgment=b).count() == 1  # the other candidate's stays
    judge_client.post(f"{base}/redo/", **HTMX)
    assert Span.objects.filter(judgment=a).count() == 1
