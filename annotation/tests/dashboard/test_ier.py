"""IER on the dashboard (issue 14, point 2): the table's column, the meta-evaluation and
seed 001 Table 3's IER column, all by hand."""

from __future__ import annotations

from datetime import datetime, timedelta

import numpy as np
import pytest
from django.test import Client
from django.utils import timezone

from annotation.changes import judgments_changed
from annotation.dashboard import figures as dashboard_figures
from annotation.dashboard.effort import effort
from annotation.dashboard.meta_human import sentence_human
from annotation.dashboard.panels.effort import effort_panel
from annotation.dashboard.panels.meta import meta_panel
from annotation.judging.changes import judgment_finish, judgment_set_sser
from annotation.judging.items import judgment_ier_mark, judgment_ier_split
from annotation.judging.stack import judgment_for
from annotation.judging.start import judgment_open, judgment_seen
from annotation.models import Corpus, Judgment, User
from annotation.statistics import judgment_rows
from annotation.tests.boards import view_of
from annotation.tests.factories import judgment_row, target_of

pytestmark = pytest.mark.django_db

#: Per system of the hand corpus, each sentence's (items not OK, items): perfect 0 of 8
#: items (0 %), one-off 2 of 8 (25 %: sentences at 50, 0, 50, 0 %), bad 8 of 8 (100 %).
HAND_IER = {
    "perfect": [(0, 2)] * 4,
    "one-off": [(1, 2), (0, 2), (1, 2), (0, 2)],
    "bad": [(2, 2)] * 4,
}


@pytest.fixture
def ier_hand(judged_hand: Corpus) -> Corpus:
    """The judged hand corpus with information items, and IER's share of the time: 10 s
    and 3 changes per judgment of "one-off", none elsewhere (of 30 s each)."""
    for system, counts in HAND_IER.items():
        for k, (errors, items) in enumerate(counts):
            Judgment.objects.filter(
                target__translator__name=system, target__sentence__position=k
            ).update(
                ier_errors=errors,
                ier_length=items,
                ier_seconds=10.0 if system == "one-off" else 0.0,
                ier_clicks=3 if system == "one-off" else 0,
            )
    judgments_changed(judged_hand.pk)
    return judged_hand


def test_the_table_has_each_systems_ier(ier_hand: Corpus) -> None:
    figures = view_of(ier_hand).get(dashboard_figures.human)
    assert {s: figures[s]["ier"].score for s in HAND_IER} == {
        "perfect": 0.0,
        "one-off": 25.0,
        "bad": 100.0,
    }
    assert figures["bad"]["ier"].signature.startswith("judgments:4|items:judge|tok:13a")


def test_judgments_without_items_do_not_enter_ier(judged_hand: Corpus) -> None:
    """A corpus judged without IER has no IER figure ("–"), not 0 %."""
    assert all("ier" not in f for f in view_of(judged_hand).get(dashboard_figures.human).values())


def test_the_meta_evaluation_correlates_with_ier(ier_hand: Corpus) -> None:
    """System level: WER 0, 25, 100 against IER 0, 25, 100 — one line. Sentence level:
    per candidate WER 0 ×4, 25 ×4, 100 ×4 against IER 0 ×4, 50 0 50 0, 100 ×4."""
    meta = view_of(ier_hand).get(meta_panel)
    system = meta.get("wer", "ier", "system")
    assert system.pearson.value == pytest.approx(1.0, abs=1e-12)
    assert system.kendall.value == pytest.approx(1.0, abs=1e-12)
    x = [0.0] * 4 + [25.0] * 4 + [100.0] * 4
    y = [0.0] * 4 + [50.0, 0.0, 50.0, 0.0] + [100.0] * 4
    sentence = meta.get("wer", "ier", "sentence")
    assert sentence.pearson.n == 12
    assert sentence.pearson.value == pytest.approx(np.corrcoef(x, y)[0, 1], abs=1e-12)
    assert "ier" in [h["metric"] for h in meta.humans]


def test_sentence_ier_sums_the_items_of_a_candidates_judges() -> None:
    rows = [
        judgment_row("S", 0, "A", ier=(1, 3)),
        judgment_row("S", 0, "B", ier=(2, 2)),  # the candidate: 3 of 5 = 60 %
        judgment_row("S", 1, "A"),  # no items: not a point
    ]
    assert sentence_human(rows, "ier") == {("S", 0): 60.0}


def test_table_3_gets_an_ier_column_of_minutes_and_changes(ier_hand: Corpus) -> None:
    """one-off: 4 × 30 s, of which 4 × 10 s on 12 IER changes: pass 80 s, IER 40 s."""
    e = view_of(ier_hand).get(effort_panel)
    one_off = next(r for r in e.systems if r.system == "one-off")
    assert (one_off.minutes, one_off.pass_minutes) == (2.0, pytest.approx(80 / 60))
    assert (one_off.ier_minutes, one_off.ier_clicks) == (pytest.approx(40 / 60), 12)
    assert e.has_ier
    assert e.total_ier_clicks == 12
    assert e.total_pass_minutes == pytest.approx(6.0 - 40 / 60)


def test_table_3_shows_no_ier_column_without_ier_changes() -> None:
    e = effort([judgment_row("A", 0, "ann", seconds=30)], ["A"])
    assert not e.has_ier
    assert e.systems[0].pass_minutes == 0.5


def test_the_effort_panel_prints_the_ier_column(
    ier_hand: Corpus, lead: User, client: Client
) -> None:
    client.force_login(lead)
    html = client.get(f"/dashboard/{ier_hand.pk}/panel/effort/").content.decode()
    assert 'data-col="ier" data-clicks="12">0.7 (12)</td>' in html
    assert 'id="effort-ier-total" data-clicks="12">0.7 (12)</td>' in html


def test_ier_time_is_measured_from_the_events(judge: User, seed: Corpus) -> None:
    """Open at t, split at t+5 s, mark at t+12 s, SSER at t+20 s, done at t+22 s: IER's
    changes took 5 + 7 = 12 s of the 22 s, in 2 changes."""
    seed.ier_enabled = True
    seed.save()
    t = timezone.now()

    def after(seconds: int) -> datetime:
        return t + timedelta(seconds=seconds)

    opened = judgment_open(user=judge, target=target_of(seed, "a translator"))
    judgment_seen(judgment=opened, user=judge, at=t)
    j = judgment_for(pk=opened.pk, user=judge)
    judgment_ier_split(judgment=j, user=judge, version=j.version, gap=5, at=after(5))
    judgment_ier_mark(
        judgment=j,
        user=judge,
        version=j.version,
        start=5,
        label="meaning",
        at=after(12),
    )
    judgment_set_sser(judgment=j, user=judge, version=j.version, sser=7, at=after(20))
    judgment_finish(judgment=j, user=judge, version=j.version, at=after(22))

    (row,) = judgment_rows(seed)
    assert (row.active_seconds, row.ier_seconds, row.ier_clicks) == (22.0, 12.0, 2)
    assert (row.ier_errors, row.ier_length) == (1, 2)
    (system,) = [r for r in view_of(seed).get(effort_panel).systems if r.judgments]
    assert (system.ier_seconds, system.pass_minutes) == (12.0, pytest.approx(10 / 60))
