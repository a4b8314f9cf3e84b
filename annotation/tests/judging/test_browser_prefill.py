"""ESA with pre-filled spans (issue 41, point 3) in real Chromium: a judge finds the
spans the aWER alignment suggests, removes one, keeps the other, scores and accepts;
the lead's campaign page then shows the kept rate. The database is read afterwards."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from annotation.models import Judgment, Span, User
from annotation.models.corpus import Protocol
from annotation.tests.browsing import log_in, open_corpus
from annotation.tests.factories import import_xml, in_file_order
from annotation.tests.test_browser_accessibility import Audit, inject_into_every_page

pytestmark = pytest.mark.django_db(transaction=True)

#: The first candidate against its reference: "dog" another word (a major span), "the"
#: missing (a minor [MISSING]); the second equals its reference (nothing suggested).
TWO = """<evalTrans>
<sentence doc="news"><source>El gato duerme en la alfombra.</source>
<eval translator="first reference"><target>The cat sleeps on the mat.</target></eval>
<eval translator="sys"><target>The dog sleeps on mat.</target></eval></sentence>
<sentence doc="news"><source>Un perro corre.</source>
<eval translator="first reference"><target>A dog runs.</target></eval>
<eval translator="sys"><target>A dog runs.</target></eval></sentence>
</evalTrans>"""
END = len("The dog sleeps on mat.")
DOG = "4:7:major:0:"
MISSING = f"{END}:{END}:minor:1:"


def test_a_judge_corrects_the_suggestions_and_the_lead_sees_the_kept_rate(
    page: Page, live_server, user_factory
) -> None:
    judge = user_factory("ana", role=User.Role.JUDGE)
    corpus = in_file_order(import_xml(TWO, "prefill", judge))
    corpus.protocol = Protocol.ESA_PREFILL
    corpus.save(update_fields=["protocol"])
    corpus.leads.add(user_factory("lea", role=User.Role.LEAD))
    inject_into_every_page(page)
    audit = Audit(page)

    open_corpus(page, live_server.url, name="prefill")
    expect(page.locator("#prefill-note")).to_be_visible()
    audit.check("the ESA page with suggested spans")
    suggested = page.locator('#spans .span-row[data-suggested="true"]')
    expect(suggested).to_have_count(2)
    expect(page.locator(f'#spans .span-row[data-span="{DOG}"]')).to_contain_text("dog")
    expect(page.locator('#candidate .piece.err-major[data-start="4"]')).to_have_text("dog")

    page.locator(f'#spans .span-row[data-span="{MISSING}"] [data-action="remove-span"]').click()
    expect(page.locator(f'#spans .span-row[data-span="{MISSING}"]')).to_have_count(0)
    expect(suggested).to_have_count(1)  # "dog" kept as suggested
    page.fill("#esa-score-number", "55")
    page.press("#esa-score-number", "Enter")
    expect(page.locator("#esa-shown")).to_have_text("55")
    page.click("#accept-next")
    expect(page.locator("#candidate")).to_contain_text("A dog runs.")
    expect(page.locator("#spans .span-row")).to_have_count(0)  # nothing to suggest

    first = Judgment.objects.get(target__sentence__position=0)
    assert (first.state, first.esa_score) == (Judgment.State.DONE, 55)
    judge_rows = Span.objects.filter(judgment=first, origin=Span.Origin.JUDGE)
    assert [(s.start, s.end, s.suggestion_id is not None) for s in judge_rows] == [(4, 7, True)]
    assert Span.objects.filter(judgment=first, origin=Span.Origin.SUGGESTED).count() == 2

    page.context.clear_cookies()
    log_in(page, live_server.url, "lea")
    page.goto(f"{live_server.url}/campaigns/{corpus.pk}/")
    for who in ('data-judge="ana"', 'data-judges="all"'):
        row = page.locator(f'#suggestions-kept tr[{who}][data-source="awer"]')
        expect(row).to_have_attribute("data-kept", "1")
        expect(row).to_have_attribute("data-removed", "1")
        expect(row.locator('[data-col="kept-rate"]')).to_have_text("50.0 %")
    audit.check("the campaign page with suggestions kept")

    # the lead's import page: a refused file says its line and reason
    page.click('a[data-action="imported-spans"]')
    page.set_input_files("#id_spans-file", files=[{
        "name": "xcomet.jsonl", "mimeType": "application/json",
        "buffer": b'{"system": "sys", "segment": 9, "spans": []}\n',
    }])  # fmt: skip
    page.click("#import-spans-submit")
    expect(page.locator("#spans-refusal")).to_contain_text(
        "xcomet.jsonl line 1: segment 9 is out of range"
    )
    audit.check("imported spans, a file refused")
    assert audit.failures == [], "\n".join(audit.failures)
