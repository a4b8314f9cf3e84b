"""In real Chromium, a lead's dashboard on two judged sentences per system: the SSER
chart and its SVG download say what the table says ("too few judged sentences (n = 2)")
and mark no best; the meta-evaluation says "too few" beside each system-level value."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from annotation.corpora.imports import corpus_import
from annotation.models import User
from annotation.tests.campaigns.test_browser import log_in
from annotation.tests.factories import PASSWORD, done_judgment, write_corpus

TOO_FEW = "too few judged sentences (n = 2)"


def test_the_downloaded_chart_claims_no_more_than_the_table(
    page: Page, live_server, tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    refs = [[f"w{k} a b c"] for k in range(12)]
    systems = {
        "good": [f"w{k} a b c" for k in range(12)],
        "poor": [f"w{k} x y c" for k in range(12)],
    }
    corpus = corpus_import(source=write_corpus(tmp_path / "c.xml", refs, systems), name="c").corpus
    ann = user_factory("ann")
    for system, score in (("good", 10), ("poor", 3)):
        for k in range(2):
            done_judgment(corpus, ann, system, k, sser=score)
    user_factory("lee", role=User.Role.LEAD)
    base = live_server.url

    log_in(page, base, "lee", PASSWORD)
    page.wait_for_url(f"{base}/")
    page.goto(f"{base}/dashboard/{corpus.pk}/")
    expect(page.locator('#metrics-table th[data-metric="sser"] .too-few')).to_have_text(TOO_FEW)
    chart = page.locator('figure[data-chart="sser"]')
    expect(chart.locator("svg text.too-few")).to_have_text(TOO_FEW)
    expect(chart.locator("g.bar[data-best]")).to_have_count(0)
    expect(chart.locator("g.bar text.value").first).to_contain_text("n = 2")
    cell = page.locator(
        '#meta-table tr[data-metric="wer"] td[data-human="sser"][data-level="system"]'
    )
    expect(cell.first.locator(".too-few")).to_have_text(TOO_FEW)

    with page.expect_download() as download:
        chart.locator('a[data-action="download-svg"]').click()
    svg = Path(download.value.path()).read_text(encoding="utf-8")
    assert TOO_FEW in svg
    assert "★" not in svg
    assert 'data-best="true"' not in svg
