"""Imported scores in real Chromium: a refused file shows its line and reason in the page
(htmx swaps the 400), the lead fixes it, and the metric is listed, then shown on the
dashboard with its direction."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from annotation.corpora.imports import corpus_import
from annotation.models import ExternalMetric, User
from annotation.tests.browsing import log_in, wait_for_htmx
from annotation.tests.factories import HAND_REFS, HAND_SYSTEMS, write_corpus
from annotation.tests.imported import tsv

COMET = {"perfect": [0.9, 0.8, 0.95, 0.85], "one-off": [0.7] * 4, "bad": [0.1, 0.0, 0.2, 0.1]}


def test_a_lead_sees_a_refusal_in_place_then_imports_the_fixed_file(
    page: Page, live_server, user_factory: Callable[..., User], tmp_path: Path
) -> None:
    source = write_corpus(tmp_path / "hand.xml", HAND_REFS, HAND_SYSTEMS)
    corpus = corpus_import(source=source, name="hand").corpus
    user_factory("lee", role=User.Role.LEAD)
    bad = tmp_path / "bad.tsv"
    bad.write_bytes(tsv(COMET).replace(b"bad\t2\t0.0", b"bad\t2\tNaN"))
    good = tmp_path / "comet.tsv"
    good.write_bytes(tsv(COMET))
    base = live_server.url
    log_in(page, base, "lee")
    page.goto(f"{base}/campaigns/{corpus.pk}/")
    page.click('a[data-action="imported-scores"]')
    wait_for_htmx(page)

    page.set_input_files("#id_scores-file", str(bad))
    page.fill("#id_scores-name", "COMET-22")
    page.check("#id_scores-direction_0")  # higher is better
    page.click("#import-scores-submit")

    expect(page.locator("#scores-refusal")).to_contain_text(
        "bad.tsv line 10: score 'NaN' is not a finite number"
    )
    assert not ExternalMetric.objects.exists()

    page.set_input_files("#id_scores-file", str(good))
    page.fill("#id_scores-name", "COMET-22")
    page.check("#id_scores-direction_0")
    page.click("#import-scores-submit")

    expect(page.locator("#scores-done")).to_contain_text("Imported COMET-22")
    expect(page.locator('#imported-metrics tr[data-metric="COMET-22"]')).to_contain_text(
        "higher is better"
    )
    assert page.url == f"{base}/corpora/{corpus.pk}/scores/"  # answered in place (htmx)
    page.click('a[data-action="dashboard"]')
    head = page.locator('#metrics-table th[data-metric="COMET-22"]')
    expect(head).to_contain_text("↑ higher is better")
    expect(page.locator('#metrics-table td[data-metric="COMET-22"]').first).to_contain_text("0.88")
