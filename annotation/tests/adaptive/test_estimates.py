"""The weighted estimates (issue 43, point 2): the dashboard's panel and the campaign page
of a corpus dealt adaptively show every system's estimate weighted by the recorded
chances, equal to :mod:`metrics.weighting`'s on the same data; which pairs are resolved,
by which test and at what error rate, and the judgments left. With adaptive dealing off
the panel says so and shows no figure of its own."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from django.test import Client
from django.urls import reverse
from lxml import html

from annotation.adaptive.design import corpus_covariates, corpus_judged
from annotation.campaigns.dealing import deal_next
from annotation.models import Campaign, Corpus, DealingRound, Task, User
from annotation.tests.adaptive.helpers import adaptive_corpus, judge_task
from annotation.tests.stored import automatic_statistics
from metrics import weighting
from metrics.estimate import fit_judged
from metrics.simulate import standardised
from metrics.strata import document_codes
from metrics.weighting import Weighted, aipw, combine, design_factor, linear_prediction

pytestmark = pytest.mark.django_db


def judged_through(campaign: Campaign, judges: list[User], tasks: int, spread: float = 1.5) -> None:
    """``tasks`` batches dealt in turn to ``judges`` and judged whole (neighbouring
    systems ``spread`` SSER points apart)."""
    for k in range(tasks):
        task = deal_next(user=judges[k % len(judges)], campaign=campaign)
        assert task is not None
        judge_task(task, judges[k % len(judges)], spread=spread)


@pytest.fixture
def under_way(user_factory: Callable[..., User]) -> tuple[Campaign, Corpus]:
    """A campaign of 3 systems over 24 documents of 4 sentences (a batch each), its
    warm-up and a few rounds judged."""
    judges = [user_factory(f"judge{k}") for k in range(3)]
    campaign, corpus = adaptive_corpus("under way", [4] * 24, systems=3, judges=judges)
    automatic_statistics(corpus)  # stored, as once its import's job is done: covariates
    judged_through(campaign, judges, 14)
    return campaign, corpus


def by_hand(corpus: Corpus, system: int) -> Weighted:
    """A system's weighted estimate from the recorded rows, by :mod:`metrics.weighting`'s
    functions called one by one: the warm-up's control-variate estimate (the stored
    automatic scores as covariates, documents as strata), then each round's augmented
    inverse-probability estimate, its chance the recorded one times the share of its
    drawn sentences judged; the variances summed over batches, the draws' unit (the
    warm-up's the larger of the segments' and the batches'), each round's variance
    anticipated from the residuals of the sentences judged before it."""
    n = corpus.n_sentences
    judged_scores = corpus_judged(corpus)
    y = judged_scores.scores["sser"][f"system {system}"]
    codes = document_codes(judged_scores.documents)  # documents as strata, as everywhere
    covariates = corpus_covariates(corpus)
    assert covariates is not None
    mine = covariates.scores[f"system {system}"]
    z = standardised(np.column_stack([mine[name] for name in covariates.labels]))
    estimates, weights = [], []
    before = np.zeros(n, dtype=bool)
    batch = np.zeros(n, dtype=np.int64)
    for task in Task.objects.filter(corpus=corpus, copy=0):
        batch[task.start : task.end] = task.batch
    for row in DealingRound.objects.filter(corpus=corpus).order_by("number"):
        drawn = np.zeros(n, dtype=bool)
        chance = np.zeros(n)
        for task in Task.objects.filter(corpus=corpus, copy=0):
            if str(task.batch) in row.probabilities:
                chance[task.start : task.end] = row.probabilities[str(task.batch)]
            if task.round == row.number:
                drawn[task.start : task.end] = True
        judged = np.flatnonzero(drawn & ~np.isnan(y))
        if len(judged) >= 3:
            if row.number == 0:
                chosen = fit_judged(y[judged], z, judged, codes).chosen
                m = len(set(batch[judged]))
                share = np.full(len(judged), m / len(set(batch)))
                fitted = linear_prediction(judged, y[judged], z)
                by_batch = aipw(y[judged], judged, share, fitted, batch[judged]).variance
                variance = max(chosen.variance[0], by_batch * m / (m - 1))
                estimates.append(Weighted(chosen.mean[0], variance, chosen.third[0]))
                weights.append(1 / design_factor(np.full(n, len(judged) / n)))
            else:
                seen = np.flatnonzero(before)
                predicted = linear_prediction(seen, y[seen], z)
                guess = np.where(before, np.nan_to_num(y), predicted)
                pi = chance * len(judged) / np.count_nonzero(drawn)
                pool = np.flatnonzero((pi > 0) & ~before)
                per_batch = pi[pool][np.unique(batch[pool], return_index=True)[1]]
                residuals = y[seen] - predicted[seen]
                parameters = z.shape[1] + 1
                least = weighting.anticipated_variance(
                    residuals, per_batch, n, parameters=parameters, clusters=batch[seen]
                )
                estimates.append(
                    aipw(y[judged], judged, pi[judged], guess, batch[judged], anticipated=least)
                )
                weights.append(1 / design_factor(pi[(pi > 0) & ~before]))
        before |= drawn & ~np.isnan(y)
    return combine(estimates, weights)


def panel(client: Client, corpus: Corpus) -> html.HtmlElement:
    url = reverse("dashboard:panel", args=[corpus.pk, "adaptive"])
    response = client.get(url)
    assert response.status_code == 200
    return html.fromstring(response.content).get_element_by_id("adaptive")


def test_the_panels_weighted_estimate_equals_the_weighting_modules_on_the_same_data(
    lead_client: Client, under_way: tuple[Campaign, Corpus]
) -> None:
    _, corpus = under_way
    assert DealingRound.objects.filter(corpus=corpus).count() >= 3  # warm-up and rounds

    section = panel(lead_client, corpus)

    assert section.get("data-adaptive") == "true"
    for s in (1, 2, 3):
        (row,) = section.cssselect(f'#adaptive-estimates tr[data-translator="system {s}"]')
        expected = by_hand(corpus, s)
        low, high = expected.bounds(0.95)
        assert float(row.get("data-estimate")) == pytest.approx(expected.mean, rel=1e-9)
        assert float(row.get("data-estimate-low")) == pytest.approx(low, rel=1e-9)
        assert float(row.get("data-estimate-high")) == pytest.approx(high, rel=1e-9)


def test_resolved_pairs_are_marked_with_their_test_and_error_rate(
    lead_client: Client, under_way: tuple[Campaign, Corpus]
) -> None:
    """The judges' scores put the systems 1.5 points of SSER apart: after 14 batches of
    12 sentences, system 1 against system 3 is resolved, system 3 first (its sentences
    need the fewest edits)."""
    _, corpus = under_way

    section = panel(lead_client, corpus)

    test = section.get_element_by_id("adaptive-test")
    assert "inverse-probability" in test.get("data-test")
    assert test.get("data-alpha") == "0.05"
    assert "α = 0.05" in test.text_content()
    (far,) = section.cssselect('#adaptive-pairs tr[data-pair="system 1|system 3"]')
    assert far.get("data-resolved") == "true"
    assert far.get("data-better") == "system 3"
    assert float(far.get("data-p-value")) < 0.05
    ranks = {
        r.get("data-translator"): int(r.get("data-rank"))
        for r in section.cssselect("#adaptive-estimates tbody tr")
    }
    assert ranks["system 3"] < ranks["system 1"]


def test_the_campaign_page_says_which_pairs_are_open_and_the_judgments_left(
    lead_client: Client, user_factory: Callable[..., User]
) -> None:
    """Two systems judged alike stay open: the page lists that pair with the sentences
    it needs, and the judgments left; a lead sees when the campaign can stop."""
    judges = [user_factory(f"judge{k}") for k in range(2)]
    campaign, corpus = adaptive_corpus("open", [4] * 20, systems=3, judges=judges)
    judged_through(campaign, judges, 6, spread=0.0)

    page = lead_client.get(reverse("campaigns:corpus", args=[corpus.pk]))
    section = html.fromstring(page.content).get_element_by_id("adaptive-stop")

    open_pairs = [li.get("data-pair") for li in section.cssselect("#adaptive-open li")]
    assert open_pairs  # some pair is not resolved after six batches
    assert int(section.get("data-open")) == len(open_pairs)
    left = section.get("data-judgments-left")
    assert left == "" or int(left) >= 0
    status = panel(lead_client, corpus).get_element_by_id("adaptive-summary")
    assert status.get("data-judgments-left") == left


def test_with_adaptive_dealing_off_the_panel_says_so_and_shows_no_figure(
    lead_client: Client, user_factory: Callable[..., User]
) -> None:
    judges = [user_factory("ann")]
    campaign, corpus = adaptive_corpus("off", [4] * 8, systems=3, judges=judges, adaptive=False)
    judged_through(campaign, judges, 3)

    section = panel(lead_client, corpus)
    page = lead_client.get(reverse("campaigns:corpus", args=[corpus.pk]))

    assert section.get("data-adaptive") == "false"
    assert section.get_element_by_id("adaptive-off") is not None
    assert not section.cssselect("#adaptive-estimates")
    assert not html.fromstring(page.content).cssselect("#adaptive-stop")
    assert not DealingRound.objects.filter(corpus=corpus).exists()


def test_the_estimates_panel_points_to_the_weighted_ones_only_where_dealing_is_adaptive(
    lead_client: Client, under_way: tuple[Campaign, Corpus], user_factory: Callable[..., User]
) -> None:
    _, adaptive = under_way
    judges = [user_factory("ann")]
    campaign, plain = adaptive_corpus("plain", [4] * 8, systems=3, judges=judges, adaptive=False)
    judged_through(campaign, judges, 3)

    def note(corpus: Corpus) -> list[html.HtmlElement]:
        url = reverse("dashboard:panel", args=[corpus.pk, "estimates"])
        return html.fromstring(lead_client.get(url).content).cssselect("#estimates-adaptive-note")

    assert note(adaptive)
    assert not note(plain)


def test_the_estimates_panel_shows_the_weighted_estimates_of_the_metric_dealt_by(
    lead_client: Client, under_way: tuple[Campaign, Corpus]
) -> None:
    """The Estimates panel's SSER rows (the metric the dealing follows) carry the weighted
    estimates and rank groups, as the Weighted estimates panel shows them."""
    _, corpus = under_way
    weighted = panel(lead_client, corpus)
    url = reverse("dashboard:panel", args=[corpus.pk, "estimates"])
    page = html.fromstring(lead_client.get(url).content)

    for s in (1, 2, 3):
        (mine,) = weighted.cssselect(f'#adaptive-estimates tr[data-translator="system {s}"]')
        (row,) = page.cssselect(
            f'#estimates-table tr[data-metric="sser"][data-translator="system {s}"]'
        )
        assert row.get("data-method") == "weighted (adaptive dealing)"
        assert row.get("data-estimate") == mine.get("data-estimate")
        assert row.get("data-estimate-low") == mine.get("data-estimate-low")
        assert row.get("data-rank") == mine.get("data-rank")
