"""Every judge and lead can read and use every page (issue 35, point 11), in real Chromium.

axe-core (vendored beside this module, pinned as htmx is) runs on every page a judge or a
lead opens, in the states that draw what the page can draw (every edit operation's mark,
a major error, the word editor, IER, the page's messages, rank groups, charts, "too few"
notes, a job's progress, refusals, the error pages), at 1000×700 and at 1920×1080; a
serious or critical violation of WCAG 2.2 A/AA or of axe's best practices fails the test,
and so does a page without exactly one ``<h1>`` or with an empty table header. A second
test walks the judge's page and the dashboard with Tab: every control is reached, and
shows the focus outline. A third: a judge deactivated while the page is open is told so
at the next click, not that the session expired.

axe is injected through DevTools (``page.evaluate``), which the page's
Content-Security-Policy does not govern (a ``<script>`` it added would be refused, and
production pages never load it); the ``page`` fixture still fails the test on anything
the policy blocks."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.template.loader import render_to_string
from playwright.sync_api import Page, Route, expect

from annotation.accounts import user_set_active
from annotation.campaigns.links import link_revoke, links_create
from annotation.corpora.import_jobs import queue_import
from annotation.corpora.imports import corpus_import
from annotation.jobs import Job
from annotation.judging.changes import judgment_set_sser
from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, User
from annotation.tests.browsing import log_in, wait_for_htmx
from annotation.tests.documents import add_speech
from annotation.tests.factories import (
    DEMO_XML,
    PASSWORD,
    SEED_XML,
    add_judgments,
    done_judgment,
    import_xml,
    store_failed_jobs,
    target_of,
)
from annotation.tests.imported import import_scores
from annotation.tests.pools import grow_demo_pool
from annotation.tests.stored import scored
from annotation.web import ERR_PAGE_UNAVAILABLE

pytestmark = pytest.mark.django_db(transaction=True)

HERE = Path(__file__).parent
#: axe-core 4, the npm registry's ``axe-core`` package's ``axe.min.js`` (MPL-2.0; its
#: licence and its bundled libraries' are beside it).
AXE = HERE / "vendor" / "axe-core-4.14.1.min.js"
#: The checks axe cannot make (the contrast of a chart's text, the focus outline).
CHECKS = HERE / "accessibility.js"
#: WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
#: What fails a page: any violation of these impacts, and these rules at any impact (the
#: issue names them; axe calls a missing <h1> moderate and an empty header minor).
FAILING_IMPACTS = ["serious", "critical"]
FAILING_RULES = ["page-has-heading-one", "empty-table-header", "empty-heading"]
VIEWPORTS = [(1000, 700), (1920, 1080)]

#: Every failure of the page (or of its part ``within``, less the parts ``skipped``),
#: one line each. Single characters (a rank group's "2") are text too, whose contrast
#: axe leaves unchecked unless told. A chart's SVG is left to ``svgText``: axe cannot
#: tell what lies under its text, and its thousands of shapes would double the time of
#: a dashboard's run.
RUN_AXE = """async ([within, skipped, tags, impacts, rules]) => {
  const exclude = [["svg"]].concat(skipped.map(s => [s]));
  const result = await axe.run({include: [[within]], exclude: exclude}, {
    runOnly: {type: "tag", values: tags}, resultTypes: ["violations"],
    checks: {"color-contrast": {options: {ignoreLength: true}}}, preload: false, iframes: false});
  const lines = [];
  for (const v of result.violations) for (const n of v.nodes) {
    if (impacts.includes(n.impact) || rules.includes(v.id))
      lines.push(`${v.id} (${n.impact}) at ${n.target.join(" ")}: ${n.failureSummary}`);
  }
  const h1 = document.querySelectorAll("h1").length;
  if (h1 !== 1) lines.push(`${h1} <h1> elements, not one`);
  return lines.concat(evaltoolChecks.svgText());
}"""


def inject(page: Page) -> None:
    """axe and our checks into the page shown, once (DevTools runs them: the page's
    Content-Security-Policy, which would refuse a ``<script>`` added to the page, does not
    govern what DevTools evaluates)."""
    if not page.evaluate("() => window.axe !== undefined"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
        page.evaluate(CHECKS.read_text(encoding="utf-8"))


def inject_into_every_page(page: Page) -> None:
    """axe and our checks into every page the tab opens from now on, as it opens (DevTools
    again): the browser keeps the scripts, where :func:`inject` sends their 650 kB over
    DevTools' pipe for every page checked."""
    page.context.add_init_script(path=AXE)
    page.context.add_init_script(path=CHECKS)


class Audit:
    """axe on each page the test shows, its failures gathered (one line each, named by
    the page and its state) so that one run reports them all.

    With ``viewports``, each state is checked at every one of them in turn (the tab
    resized, the page left as it is) and the tab is then put back to the first, where
    the test clicks: a viewport changes only the layout, so one walk through the pages
    checks them all at every size, where a walk per size would make the same data and
    the same clicks again."""

    def __init__(self, page: Page, viewports: Sequence[tuple[int, int]] = ()) -> None:
        self.page = page
        self.viewports = list(viewports)
        self.failures: list[str] = []
        self.pages = 0

    def check(self, where: str, within: str = "html", skipped: Sequence[str] = ()) -> None:
        """axe on the page shown (on its part ``within``, less the parts ``skipped``), at
        each of the audit's viewports.

        The page's load event comes first: after a form's post the new page's elements can
        be seen before its stylesheet applies, and axe would measure unstyled buttons."""
        self.page.wait_for_load_state("load")
        inject(self.page)
        if not self.viewports:
            self._run_axe(where, within, skipped)
        for width, height in self.viewports:
            self._resize(width, height)
            self._run_axe(f"{where} at {width}×{height}", within, skipped)
        if len(self.viewports) > 1:
            self._resize(*self.viewports[0])
        self.pages += 1

    def _resize(self, width: int, height: int) -> None:
        """The tab at ``width``×``height``, resized only if it is not: a resize lays the
        page out again (a dashboard's thousands of elements), and the tab is at the
        first viewport already as each check begins."""
        if self.page.viewport_size != {"width": width, "height": height}:
            self.page.set_viewport_size({"width": width, "height": height})

    def _run_axe(self, where: str, within: str, skipped: Sequence[str]) -> None:
        found = self.page.evaluate(
            RUN_AXE, [within, list(skipped), TAGS, FAILING_IMPACTS, FAILING_RULES]
        )
        self.failures += [f"{where}: {line}" for line in found]

    def visit(
        self,
        url: str,
        where: str,
        shows: str = "main",
        within: str = "html",
        skipped: Sequence[str] = (),
    ) -> None:
        """Open ``url``, see that it ``shows`` the state meant, and check it."""
        self.page.goto(url)
        expect(self.page.locator(shows).first).to_be_visible()
        self.check(where, within, skipped)


#: One sentence whose candidate has a mark of every kind against the first reference
#: ("dog": substitution, the second "sat": extra, "the": missing), twice: the second
#: system's identical candidate is offered the first one's judgment (a reuse note).
MARKS = """<evalTrans><sentence><source>el gato se sentó en la alfombra .</source>
<eval translator="first reference"><target>the cat sat on the mat .</target></eval>
<eval translator="multi reference"><target>a cat sat on a mat .</target></eval>
<eval translator="one"><target>the dog sat sat on mat .</target></eval>
<eval translator="two"><target>the dog sat sat on mat .</target></eval>
</sentence></evalTrans>"""

#: IER's default split gives three items.
IER = """<evalTrans><sentence><source>s</source>
<eval translator="first reference"><target>He came home, he said. Was it late?</target></eval>
<eval translator="sys"><target>He came home , he said . Was it late ?</target></eval>
</sentence></evalTrans>"""


def campaign(make_user: Callable[..., User]) -> dict[str, Any]:
    """What the pages draw: the judge "ana" with a corpus of every mark (live figures
    shown), an IER corpus, a finished corpus and a document cut into sentences; the lead
    "lee" with the demo corpus judged by four judges (its pool grown, a segment-score
    metric imported, a system re-segmented, control items on), scored."""
    ana = make_user("ana", role=User.Role.JUDGE)
    lee = make_user("lee", role=User.Role.LEAD)
    marks = import_xml(MARKS, "marks", ana)
    marks.judges_see_figures = True
    marks.save()
    ier = import_xml(IER, "ier", ana)
    ier.ier_enabled = True
    ier.save()
    finished = import_xml(IER, "finished", ana)
    done_judgment(finished, ana, "sys", 0, sser=8, new_ref="He came home.", edits=1, length=3)

    demo = corpus_import(source=DEMO_XML, name="demo", score=False).corpus
    grow_demo_pool(demo, make_user("ann"), make_user("bob"))
    add_judgments(demo, [make_user("carl"), make_user("dora")], 60)
    add_speech(demo)
    demo.judges.add(ana)
    demo.controls_enabled = True
    demo.save()
    systems = list(demo.translators.filter(role="system").values_list("name", flat=True))
    import_scores(demo, "COMET", {s: [0.5 + k / 100 for k in range(40)] for s in systems})
    scored(demo)
    store_failed_jobs(demo, import_into=demo.campaign)
    speech = judgment_open(user=ana, target=target_of(demo, "speech", 3))
    imported = queue_import(  # done at once: the tests' queue runs a job where it is queued
        data=SEED_XML.read_bytes(),
        filename="seed.xml",
        name="seed",
        reference_names=(),
        assign=False,
        lead=lee,
    )
    return {
        "marks": marks,
        "ier": ier,
        "finished": finished,
        "demo": demo,
        "speech": speech,
        "imported": imported,
    }


def judge_next(page: Page, corpus: str) -> Judgment:
    """From the home page, the judge's next candidate of ``corpus``, htmx loaded."""
    page.click(f'a[data-action="continue"][data-corpus="{corpus}"]')
    page.wait_for_url(re.compile(r"/judgments/\d+/$"))
    wait_for_htmx(page)
    return Judgment.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))


def judge_pages(audit: Audit, base: str, made: dict[str, Any]) -> None:
    """Every page the judge opens, in each state it can be in."""
    page = audit.page
    audit.visit(f"{base}/accounts/login/", "login")
    log_in(page, base, "ana")
    audit.check("judge's home")

    judgment = judge_next(page, "marks")
    judgment_url = page.url
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    audit.check("judge's page")

    page.keyboard.press("ArrowRight")
    page.keyboard.press("m")
    expect(page.locator('#candidate [data-severity="major"]')).to_have_count(1)
    audit.check("judge's page, a major error with the focus")

    audit.visit(f"{judgment_url}?edit=1", "judge's page, the word editor open", "#word-editor")

    page.route("**/judgments/*/sser/", lambda route: route.abort("internetdisconnected"))
    page.click('[data-sser="7"]')
    expect(page.locator("#retry")).to_be_visible()
    audit.check("judge's page, a request failed (Retry)")
    page.unroute("**/judgments/*/sser/")
    page.click("#retry")
    expect(page.locator('[data-sser="7"]')).to_have_attribute("aria-pressed", "true")

    judgment.refresh_from_db()
    judgment_set_sser(judgment=judgment, user=judgment.evaluator, version=judgment.version, sser=9)
    page.click('[data-sser="6"]')  # the page is a version behind
    expect(page.locator('#judge-message[data-message-kind="stale"]')).to_be_visible()
    audit.check("judge's page, the server's message")

    page.click("#accept-next")
    expect(page.locator("#confirm-reuse")).to_be_visible()
    audit.check("judge's page, a judgment offered again")
    page.click("#previous")
    expect(page.locator("#done-note")).to_be_visible()
    audit.check("judge's page, an accepted candidate")

    page.goto(f"{base}/")
    judge_next(page, "ier")
    audit.check("judge's page with IER")

    audit.visit(
        f"{base}/judgments/{made['speech'].pk}/",
        "judge's page, a re-segmented system",
        shows="#boundaries",
    )
    audit.visit(f"{base}/corpora/{made['finished'].pk}/judge/", "finished", shows="#all-done")
    audit.visit(f"{base}/accounts/password_change/", "password change")
    page.fill("#id_old_password", "not the password")
    page.fill("#id_new_password1", "short")
    page.fill("#id_new_password2", "short")
    page.click("#password-change-form button[type=submit]")
    expect(page.locator("#password-errors")).to_be_visible()
    audit.check("password change, refused")
    page.fill("#id_old_password", PASSWORD)
    page.fill("#id_new_password1", "ana's own passphrase")
    page.fill("#id_new_password2", "ana's own passphrase")
    page.click("#password-change-form button[type=submit]")
    expect(page.locator("#password-changed")).to_be_visible()
    audit.check("password changed")
    audit.visit(f"{base}/no/such/page/", "404", '[data-status="404"]')
    page.click(".site-header button[type=submit]")  # log out
    page.wait_for_url(f"{base}/accounts/login/")


def answer(body: str) -> Callable[[Route], None]:
    """A route that answers ``body`` (a page the live server cannot be made to show)."""
    return lambda route: route.fulfill(body=body, content_type="text/html")


def lead_pages(audit: Audit, base: str, made: dict[str, Any], settings: Any) -> None:
    """Every page the lead opens, in each state it can be in."""
    page = audit.page
    demo: Corpus = made["demo"]
    log_in(page, base, "lee")
    audit.check("lead's home")
    lead_reading_pages(audit, base, made)
    audit.visit(f"{base}/campaigns/", "judges")
    page.fill("#id_username", "newcomer")
    page.click("#judge-create-form button[type=submit]")
    expect(page.locator("#one-time-login")).to_be_visible()
    audit.check("judges, a one-time password shown")

    onboarding_pages(audit, base, demo)
    upload_pages(audit, base, made, settings)
    page.click(".site-header button[type=submit]")  # log out
    page.wait_for_url(f"{base}/accounts/login/")


def lead_reading_pages(audit: Audit, base: str, made: dict[str, Any]) -> None:
    """The lead's pages of figures and settings, a judge left out, a judge's page read
    only, and a page the lead may not open."""
    page = audit.page
    demo: Corpus = made["demo"]
    niutrans = demo.translators.get(name="NiuTrans").pk
    speech = demo.translators.get(name="speech").pk
    marks = made["marks"].pk
    for path, where, shows in [
        ("/dashboard/", "dashboards", "#dashboard-corpora"),
        (f"/dashboard/{demo.pk}/", "dashboard", '#metrics-table td[data-rank="2"] .rank'),
        (f"/dashboard/{marks}/", "dashboard of one sentence (too few)", ".too-few"),
        (f"/dashboard/{marks}/panel/table/", "a dashboard panel alone", "#table-panel"),
        (f"/dashboard/{marks}/panel/judges/", "the judges' panel alone", "#judges"),
        (f"/campaigns/{demo.pk}/", "campaign", "#campaign-judges"),
        ("/campaigns/c/", "campaigns", "#campaigns"),
        (f"/campaigns/c/{demo.campaign_id}/", "a campaign, a job failed", "#campaign-corpora"),
        ("/controls/", "control items", "#controls-corpora"),
        (f"/controls/{demo.pk}/", "control items of a corpus", "#control-settings"),
        (f"/corpora/{demo.pk}/scores/", "imported scores", "#imported-metrics"),
        (f"/corpora/{demo.pk}/judgments/", "import judgments", "#import-judgments-form"),
        (f"/corpora/{demo.pk}/remove/", "archive or delete", "#delete-form"),
        (f"/dashboard/{demo.pk}/?tok=klingon", "400", '[data-status="400"]'),
    ]:
        audit.visit(base + path, where, shows)
    # the panels are those above, but for the table's ▲/▼ and the estimates' ranks
    audit.visit(
        f"{base}/dashboard/{demo.pk}/?refs=pool&norm=z&rank=estimate",
        "dashboard against the grown pool, ranked by the estimates",
        shows="#metrics-table .shift",
        within="#table-panel",
    )
    # 40 sentences drawn alike: the first five stand for all
    audit.visit(
        f"{base}/dashboard/{demo.pk}/system/{speech}/?other={niutrans}",
        "drill-down of a re-segmented system against another",
        shows="#segmentation",
        skipped=[".sentence:nth-child(n+6)"],
    )
    page.goto(f"{base}/campaigns/{demo.pk}/")
    page.click('button[data-action="leave-out"][data-judge="dora"]')
    expect(page.locator("#left-out")).to_be_visible()
    audit.check("campaign, a judge left out")
    audit.visit(
        f"{base}/judgments/{made['speech'].pk}/", "a judge's page, read only", ".message-readonly"
    )
    page.evaluate("() => document.getElementById('accept-next').form.submit()")  # ana's
    expect(page.locator('[data-status="403"]')).to_be_visible()
    audit.check("403")


def upload_pages(audit: Audit, base: str, made: dict[str, Any], settings: Any) -> None:
    """The upload page refused, queued, refused by the worker and done, and a dashboard
    whose figures are being computed."""
    page = audit.page
    audit.visit(f"{base}/corpora/upload/", "upload")
    page.set_input_files(
        "#id_file", files=[{"name": "bad.xml", "mimeType": "text/xml", "buffer": b"<nope/>"}]
    )
    page.click("#upload-submit button")
    expect(page.locator("#upload-result .error")).to_be_visible()
    audit.check("upload, refused")

    settings.TASKS = settings.QUEUED_TASKS  # a job waits for a worker, as in production
    queued = corpus_import(source=SEED_XML, name="queued", score=False).corpus
    audit.visit(
        f"{base}/dashboard/{queued.pk}/", "dashboard, its figures being computed", "#scoring"
    )
    page.goto(f"{base}/corpora/upload/")
    page.set_input_files("#id_file", str(SEED_XML))
    page.fill("#id_name", "uploaded")
    page.click("#upload-submit button")
    expect(page.locator("#import-progress")).to_have_attribute("data-status", "queued")
    audit.check("upload, queued")
    failed = Job.objects.create(
        kind="import",
        key="import:x",
        label="import of 'x'",
        status=Job.Status.FAILED,
        error="line 3: not an evalTrans file",
    )
    audit.visit(f"{base}/corpora/imports/{failed.pk}/", "an upload refused", ".error")
    audit.visit(f"{base}/corpora/imports/{made['imported'].pk}/", "an upload done", ".summary")


def onboarding_pages(audit: Audit, base: str, demo: Corpus) -> None:
    """The lead's pages that let annotators in without a password: a list of accounts
    refused and made (the judges page), a campaign's links page, and its links made."""
    page = audit.page
    page.goto(f"{base}/campaigns/")
    page.fill("#id_bulk_accounts", "crowd1\nbad name\n")
    page.click("#bulk-form button[type=submit]")
    expect(page.locator("#bulk-errors")).to_be_visible()
    audit.check("judges, a list of accounts refused")
    page.fill("#id_bulk_accounts", "crowd1,crowd1@example.org\ncrowd2\n")
    page.locator("#bulk-form").get_by_label("demo").check()
    page.click("#bulk-form button[type=submit]")
    expect(page.locator("#bulk-logins")).to_be_visible()
    audit.check("judges, accounts made from a list")
    audit.visit(f"{base}/campaigns/links/{demo.campaign_id}/", "annotator links", "#links-form")
    page.click("#links-form button[type=submit]")
    expect(page.locator("#links-errors")).to_be_visible()
    audit.check("annotator links, refused")
    page.get_by_label("Every annotator of the campaign").check()
    page.click("#links-form button[type=submit]")
    expect(page.locator("#new-links")).to_be_visible()
    audit.check("annotator links, links made")
    page.locator('#links button[data-action="revoke"]').first.click()
    expect(page.locator('#links tr[data-state="revoked"]')).to_have_count(1)
    audit.check("annotator links, one revoked")


def link_pages(audit: Audit, base: str, made: dict[str, Any]) -> None:
    """What an annotator who comes by link sees: a link that opens nothing, another
    account's link, the completion code, and the end of a revoked link's session. The
    unknown link's failed attempt is forgotten after, so the refusal pages count their
    failed logins from nought."""
    page = audit.page
    ana = User.objects.get(username="ana")
    finished: Corpus = made["finished"]
    (done,) = links_create(campaign=finished.campaign, users=[ana])
    crowd1 = User.objects.get(username="crowd1")
    (crowd,) = links_create(campaign=made["demo"].campaign, users=[crowd1])
    audit.visit(f"{base}/a/{'x' * 43}/", "a link that opens nothing (404)", "#link-refused")
    page.goto(f"{base}{crowd.path}")
    page.wait_for_url(re.compile(r"/judgments/\d+/$"))
    audit.visit(f"{base}{done.path}", "another account's link", "#link-switch")
    page.click('#link-switch-form button[data-action="switch"]')
    expect(page.locator("#completion-code")).to_be_visible()
    audit.check("a link's completion code")
    link_revoke(link=done.link)
    audit.visit(f"{base}/", "a link's session ended", "#link-ended")
    audit.visit(f"{base}{done.path}", "a revoked link (410)", "#link-refused")
    AccessAttempt.objects.all().delete()


def refusal_pages(audit: Audit, base: str, failure_limit: int) -> None:
    """The pages that refuse: a wrong password, too many of them (last: the browser's
    address is locked out then), and the two pages the server draws without the app."""
    page = audit.page
    for status, context in ((500, {}), (503, {"reason": ERR_PAGE_UNAVAILABLE})):
        page.route(f"{base}/error-{status}/", answer(render_to_string(f"{status}.html", context)))
        audit.visit(f"{base}/error-{status}/", f"{status} (drawn without the app)", "#error")
    page.goto(f"{base}/accounts/login/")
    for attempt in range(failure_limit):
        if attempt == 1:
            audit.check("login, a wrong password")
        page.fill("#id_username", "lee")
        page.fill("#id_password", "wrong")
        page.click("#login-form button[type=submit]")
        page.wait_for_load_state()
    expect(page.locator("#locked-out")).to_be_visible()
    audit.check("locked out")


def test_no_page_has_a_serious_accessibility_violation(
    page: Page,
    live_server,
    user_factory: Callable[..., User],
    settings: Any,
) -> None:
    """Each page and state, checked at every one of :data:`VIEWPORTS`: the clicks at the
    first (the smallest, where the bars take the most room), each check at both."""
    width, height = VIEWPORTS[0]
    page.set_viewport_size({"width": width, "height": height})
    inject_into_every_page(page)
    made = campaign(user_factory)
    audit = Audit(page, VIEWPORTS)

    judge_pages(audit, live_server.url, made)
    lead_pages(audit, live_server.url, made, settings)
    link_pages(audit, live_server.url, made)
    refusal_pages(audit, live_server.url, settings.AXES_FAILURE_LIMIT)

    assert audit.failures == [], "\n".join(audit.failures)
    assert audit.pages == 59


def tab_through(page: Page, where: str) -> list[str]:
    """Press Tab from where the page starts until the focus comes round again: what is
    wrong with each control's focus outline, and each control never reached."""
    inject(page)
    controls = page.evaluate("() => evaltoolChecks.start()")
    reached: list[str] = []
    faults: list[str] = []
    for _ in range(2 * len(controls) + 5):
        page.keyboard.press("Tab")
        focused = page.evaluate("() => evaltoolChecks.focused()")
        if focused["key"] is not None and focused["key"] in reached:
            break  # round again
        if focused["key"] is not None:
            reached.append(focused["key"])
        faults += [f"{where}: {focused['where']}: {fault}" for fault in focused["faults"]]
    return faults + [
        f"{where}: {name}: never reached by Tab"
        for key, name in enumerate(controls)
        if str(key) not in reached
    ]


def test_tab_reaches_every_control_and_shows_where_the_focus_is(
    page: Page, live_server, user_factory: Callable[..., User]
) -> None:
    """At 1000×700, where the bars at the top and bottom of the judge's page take the
    most room: Tab reaches every control the page shows, each with an outline of 2 px or
    more at 3:1 against what is around it, and none under the page's own bars."""
    page.set_viewport_size({"width": 1000, "height": 700})
    ana = user_factory("ana", role=User.Role.JUDGE)
    user_factory("lee", role=User.Role.LEAD)
    marks = import_xml(MARKS, "marks", ana)
    ier = import_xml(IER, "ier", ana)
    ier.ier_enabled = True
    ier.save()
    base = live_server.url
    faults: list[str] = []

    page.goto(f"{base}/accounts/login/")
    faults += tab_through(page, "login")
    log_in(page, base, "ana")
    for corpus in (marks, ier):
        page.goto(f"{base}/corpora/{corpus.pk}/judge/")
        wait_for_htmx(page)
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
        faults += tab_through(page, f"judge's page of {corpus.name}")
    page.goto(f"{page.url}?edit=1")
    wait_for_htmx(page)
    faults += tab_through(page, "judge's page, the word editor open")
    page.click(".site-header button[type=submit]")  # log out
    log_in(page, base, "lee")
    for path in (
        f"/dashboard/{marks.pk}/",
        f"/campaigns/{marks.pk}/",
        f"/campaigns/links/{marks.campaign_id}/",
    ):
        page.goto(base + path)
        faults += tab_through(page, path)

    assert faults == [], "\n".join(faults)


def test_a_judge_deactivated_while_judging_is_told_so_at_the_next_click(
    page: Page, live_server, user_factory: Callable[..., User]
) -> None:
    ana = user_factory("ana", role=User.Role.JUDGE)
    import_xml(MARKS, "marks", ana)
    log_in(page, live_server.url, "ana")
    judgment = judge_next(page, "marks")

    user_set_active(user=ana, active=False)  # the lead's Deactivate, in another browser
    page.locator("#candidate button[data-op]").first.click()

    page.wait_for_url(re.compile(r"/accounts/login/"))
    said = page.locator("#deactivated")
    expect(said).to_contain_text("Your account has been deactivated")
    expect(said).to_contain_text("your last change was not saved")
    expect(said).to_contain_text("Ask your lead")
    expect(page.locator("main")).not_to_contain_text("session had expired")
    assert Judgment.objects.get(pk=judgment.pk).version == judgment.version
    audit = Audit(page)
    audit.check("login, after a deactivation")
    assert audit.failures == [], "\n".join(audit.failures)
