"""The dashboard's pages: who may see them, every panel, htmx and plain, downloads,
escaping, query counts."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.models import Count
from django.test import Client
from django.test.utils import CaptureQueriesContext
from lxml import etree

from annotation.corpora.imports import corpus_import
from annotation.dashboard.panels.judges import judges_agreement
from annotation.jobs import run_queued_jobs
from annotation.models import Corpus, Judgment, Target, User
from annotation.tests.boards import view_of
from annotation.tests.factories import (
    AUTOMATIC,
    HTMX,
    HUMAN,
    METRICS,
    add_judgments,
    by_id,
    cells,
    scores_json,
    signature_choice,
    sized_corpus,
    system_pk,
    write_corpus,
)
from annotation.tests.judged_corpora import SPLIT_OVERLAP
from annotation.tests.stored import automatic_statistics, scored
from metrics.registry import metric_info

pytestmark = pytest.mark.django_db


def urls(corpus: Corpus) -> list[str]:
    base = f"/dashboard/{corpus.pk}/"
    return [
        "/dashboard/",
        base,
        *(f"{base}panel/{name}/" for name in ("table", "charts", "judges", "effort", "meta")),
        f"{base}table.csv",
        f"{base}table.json",
        f"{base}chart/ranks.svg",
        f"{base}chart/bleu.svg",
        f"{base}system/{system_pk(corpus)}/",
    ]


# ------------------------------------------------------------------ access


def test_every_dashboard_url_is_for_leads_only(
    client: Client, user_factory: Callable[..., User], demo: Corpus
) -> None:
    judge = user_factory("jo")
    demo.judges.add(judge)  # even a judge assigned to the corpus
    lead = user_factory("lee", role=User.Role.LEAD)

    for url in urls(demo):
        client.logout()
        anonymous = client.get(url)
        assert anonymous.status_code == 302, url
        assert anonymous["Location"].startswith("/accounts/login/"), url
        client.force_login(judge)
        assert client.get(url).status_code == 404, url
        assert client.get(url, **HTMX).status_code == 404, url
        client.force_login(lead)
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("path", ["panel/secrets/", "chart/pie.svg", "?tok=spaces", "system/999/"])
def test_a_judge_gets_404_before_any_parameter_is_checked(
    client: Client, user_factory: Callable[..., User], demo: Corpus, path: str
) -> None:
    """A bad name or parameter is 400 for a lead only: a judge must not learn, from a
    400, that the URL exists."""
    judge = user_factory("jo")
    demo.judges.add(judge)
    client.force_login(judge)

    assert client.get(f"/dashboard/{demo.pk}/{path}").status_code == 404
    assert client.get(f"/dashboard/{demo.pk}/{path}", **HTMX).status_code == 404


def test_an_anonymous_htmx_request_is_sent_to_login_as_a_whole_page(
    client: Client, demo: Corpus
) -> None:
    response = client.get(f"/dashboard/{demo.pk}/panel/judges/", **HTMX)

    assert response.status_code == 401
    assert response["HX-Redirect"].startswith("/accounts/login/?next=")


def test_an_unknown_corpus_is_404(lead_client: Client) -> None:
    assert lead_client.get("/dashboard/999/").status_code == 404


def test_the_index_links_every_corpus(lead_client: Client, demo: Corpus) -> None:
    html = lead_client.get("/dashboard/").content.decode()

    assert f'href="/dashboard/{demo.pk}/" data-action="dashboard" data-corpus="demo"' in html


# ------------------------------------------------------------------ the page and its table


def test_the_metrics_table_has_a_row_per_system_and_a_cell_per_metric(
    lead_client: Client, demo: Corpus
) -> None:
    html = lead_client.get(f"/dashboard/{demo.pk}/").content.decode()
    got = cells(html)
    expected = scores_json("demo")["translators"]

    assert {s for s, _ in got} == set(expected)
    assert {m for _, m in got} == set(METRICS)
    for (system, metric), cell in got.items():
        # the number first, two decimals, the figure of manage.py scores
        assert re.fullmatch(r"-?\d+\.\d\d", cell["number"]), cell["text"]
        assert cell["number"] == f"{expected[system][metric]['score']:.2f}"
        assert float(cell["data-value"]) == expected[system][metric]["score"]
        assert int(cell["data-rank"]) >= 1
        assert expected[system][metric]["signature"] in cell["title"]
        assert "seed:12345" in cell["title"]
        if metric in HUMAN:
            assert f"n={cell['data-n']}" in cell["text"]
    assert 'id="preprocessing"' in html
    assert 'id="judges"' in html
    assert 'id="meta"' in html


def test_the_best_of_each_column_is_marked_once_per_best_value(
    lead_client: Client, demo: Corpus
) -> None:
    """Where the column's ranks are earned; a "too few" column marks no best."""
    html = lead_client.get(f"/dashboard/{demo.pk}/").content.decode()
    got = cells(html)
    too_few = set(re.findall(r'data-metric="(\w+)"[^>]*data-ranks="too-few"', html))

    for metric in METRICS:
        column = {s: float(c["data-value"]) for (s, m), c in got.items() if m == metric}
        higher = metric_info(metric).higher_is_better
        best = max(column.values()) if higher else min(column.values())
        marked = {s for (s, m), c in got.items() if m == metric and c.get("data-best")}
        earned = set() if metric in too_few else {s for s, v in column.items() if v == best}
        assert marked == earned, metric
        assert all("★" in got[(s, metric)]["text"] for s in marked)


@pytest.mark.parametrize("sort", ["bleu", "-bleu", "wer", "-sser"])
def test_the_server_sorts_the_table(lead_client: Client, demo: Corpus, sort: str) -> None:
    html = lead_client.get(f"/dashboard/{demo.pk}/?sort={sort}").content.decode()
    metric = sort.lstrip("-")
    order = [
        float(c["data-value"]) for (s, m), c in cells(html).items() if m == metric
    ]  # cells() keeps row order
    best_first = (metric == "bleu") != sort.startswith("-")

    assert order == sorted(order, reverse=best_first)
    head = f'data-metric="{metric}" data-higher='
    assert head in html
    assert 'aria-sort="none"' in html


@pytest.mark.parametrize("htmx", [False, True])
def test_each_heading_asks_the_server_for_the_table_sorted_by_its_column(
    lead_client: Client, demo: Corpus, htmx: bool
) -> None:
    """A heading links to the page sorted by its column, best first, or worst first
    when it is sorted by it best first already (the other choices kept). With htmx the
    same address answers with the whole ``#dashboard``, swapped in place, the address
    bar following; without, the link loads the page sorted."""
    url = f"/dashboard/{demo.pk}/"
    page = etree.HTML(lead_client.get(f"{url}?norm=z&sort=bleu", **(HTMX if htmx else {})).content)
    head = by_id(page, "metrics-table").xpath(".//thead//a[@data-sort]")
    links = {a.get("data-sort"): a for a in head}
    choices = "?tok=13a&case=mixed&reflen=nearest&bounds=no&refs=original&norm=z"

    assert set(links) == set(METRICS)
    assert links["bleu"].get("href") == f"{choices}&sort=-bleu"
    assert links["wer"].get("href") == f"{choices}&sort=wer"
    for metric, link in links.items():
        assert link.get("id") == f"sort-{metric}"  # htmx gives it the focus back
        assert link.get("hx-get") == url + link.get("href")
        assert link.get("hx-target") == "#dashboard"
        assert (link.get("hx-swap"), link.get("hx-replace-url")) == ("outerHTML", "true")

    swapped = lead_client.get(links["bleu"].get("hx-get"), **HTMX).content.decode()
    assert swapped.startswith('<div id="dashboard"')
    bleu = [float(c["data-value"]) for (_, m), c in cells(swapped).items() if m == "bleu"]
    assert bleu == sorted(bleu)  # worst first
    assert '<input type="hidden" name="sort" value="-bleu">' in swapped  # the form keeps it


def test_the_table_groups_its_columns_by_family(lead_client: Client, demo: Corpus) -> None:
    """Edit distance | n-gram | other | human, each family's columns side by side under
    one heading that spans them."""
    html = lead_client.get(f"/dashboard/{demo.pk}/").content.decode()
    table = by_id(etree.HTML(html), "metrics-table")
    columns = table.xpath(".//thead/tr[2]/th[@data-metric]")
    families = [th.get("data-family") for th in columns]
    headings = table.xpath(".//thead/tr[@class='families']/th")

    assert [th.get("data-metric") for th in columns] == list(METRICS)
    assert families == [metric_info(m).family for m in METRICS]
    assert [(h.get("data-family"), int(h.get("colspan"))) for h in headings] == [
        (f, families.count(f)) for f in dict.fromkeys(families)
    ]
    assert [h.get("data-family") for h in headings] == ["edit", "ngram", "other", "human"]


def test_htmx_gets_the_dashboard_fragment_with_the_new_choices(
    lead_client: Client, demo: Corpus
) -> None:
    response = lead_client.get(f"/dashboard/{demo.pk}/?tok=none&case=lc&reflen=best", **HTMX)
    html = response.content.decode()

    assert html.lstrip().startswith('<div id="dashboard"')
    assert "<html" not in html
    assert 'id="pre-signature">tok:none|case:lc|reflen:best|bounds:no|refs:original<' in html
    mwer = cells(html)[("NiuTrans", "mwer")]
    assert "tok:none" in mwer["title"]
    assert "reflen:best" in mwer["title"]


@pytest.mark.parametrize(
    "query",
    ["tok=spaces", "case=UPPER", "reflen=longest", "bounds=2", "norm=minmax", "sort=size"],
)
def test_bad_parameters_are_400(lead_client: Client, demo: Corpus, query: str) -> None:
    response = lead_client.get(f"/dashboard/{demo.pk}/?{query}")

    assert response.status_code == 400


# ------------------------------------------------------------------ panels


@pytest.mark.parametrize(
    "name, marker",
    [
        ("table", 'id="metrics-table"'),
        ("charts", 'data-chart="ranks"'),
        ("judges", 'id="judges-table"'),
        ("effort", 'id="effort-table"'),
        ("meta", 'id="meta-table"'),
    ],
)
def test_each_panel_plain_and_htmx(
    lead_client: Client, demo: Corpus, name: str, marker: str
) -> None:
    url = f"/dashboard/{demo.pk}/panel/{name}/"
    plain = lead_client.get(url).content.decode()
    fragment = lead_client.get(url, **HTMX).content.decode()

    assert "<html" in plain
    assert marker in plain
    assert "<html" not in fragment
    assert marker in fragment
    assert fragment.lstrip().startswith("<section id=")


def test_an_unknown_panel_is_400(lead_client: Client, demo: Corpus) -> None:
    assert lead_client.get(f"/dashboard/{demo.pk}/panel/secrets/").status_code == 400


def test_the_judges_panel_and_the_normalization_toggle(lead_client: Client, demo: Corpus) -> None:
    raw = lead_client.get(f"/dashboard/{demo.pk}/").content.decode()
    normalized = lead_client.get(f"/dashboard/{demo.pk}/?norm=z", **HTMX).content.decode()

    assert 'data-judge="ann"' in raw
    assert 'data-judge="bob"' in raw
    assert 'aria-checked="false"' in raw
    assert 'id="normalized-table"' not in raw
    assert 'aria-checked="true"' in normalized
    assert 'id="normalized-table"' in normalized
    assert normalized.lstrip().startswith('<div id="dashboard"')
    plain = lead_client.get(f"/dashboard/{demo.pk}/?norm=z").content.decode()
    assert "<html" in plain
    assert 'id="normalized-table"' in plain
    toggle = by_id(etree.HTML(raw), "norm-toggle")
    assert "norm=z" in toggle.get("href")
    assert "norm=z" in toggle.get("hx-get")
    assert toggle.get("hx-target") == "#dashboard"
    # the agreement rests on the candidates judged twice
    twice = Judgment.objects.values("target").annotate(n=Count("pk")).filter(n=2).count()
    agreement = by_id(etree.HTML(raw), "agreement")
    assert twice > 5
    assert f"n={twice} pairs" in "".join(agreement.itertext())


def test_the_effort_panel_shows_minutes_per_system(
    lead_client: Client, hand_corpus: Corpus, user_factory: Callable[..., User]
) -> None:
    ann = user_factory("ann")
    for k, seconds in enumerate((90, 30)):
        target = Target.objects.get(
            sentence__corpus=hand_corpus, sentence__position=k, translator__name="one-off"
        )
        Judgment.objects.create(
            target=target, evaluator=ann, sser=5, state="done", active_seconds=seconds
        )
    html = lead_client.get(f"/dashboard/{hand_corpus.pk}/panel/effort/").content.decode()
    tree = etree.HTML(html)

    row = tree.find('.//tr[@data-translator="one-off"]')
    assert row.find('td[@data-col="human"]').text == "2.0"
    assert row.find('td[@data-col="automatic"]').text == "0"
    assert by_id(tree, "effort-total").text == "2.0"
    speed = tree.find('.//table[@id="speed-table"]//tr[@data-judge="ann"]')
    assert speed.find('td[@data-col="pace"]').text == "60.0"  # 120 s over 2 judgments
    assert "Pace (s per candidate)" in html
    assert "per hour" not in html


def test_the_meta_panel_shows_every_automatic_metric_against_sser_awer_hter_and_ier(
    lead_client: Client, demo: Corpus
) -> None:
    tree = etree.HTML(lead_client.get(f"/dashboard/{demo.pk}/panel/meta/").content)

    rows = tree.findall('.//table[@id="meta-table"]/tbody/tr')
    assert [r.get("data-metric") for r in rows] == list(AUTOMATIC)
    for r in rows:
        tds = r.findall("td")
        # 4 human figures × (sentence: r, τ; system: r, τ, pairwise and soft accuracy)
        assert len(tds) == 24
        assert {td.get("data-human") for td in tds} == {"sser", "awer", "hter", "ier"}
        assert [td.get("data-coef") for td in tds if td.get("data-level") == "system"] == [
            "pearson",
            "kendall",
            "pairwise_accuracy",
            "soft_pairwise_accuracy",
        ] * 4
        sentence_n = {td.get("data-n") for td in tds if td.get("data-level") == "sentence"}
        system_n = {td.get("data-n") for td in tds if td.get("data-level") == "system"}
        assert system_n == {"5"}
        assert sentence_n <= {str(n) for n in range(1, 41)}


def test_meta_cells_show_the_signature_of_the_automatic_scores(
    lead_client: Client, demo: Corpus
) -> None:
    tree = etree.HTML(lead_client.get(f"/dashboard/{demo.pk}/panel/meta/?tok=intl").content)
    table = cells(lead_client.get(f"/dashboard/{demo.pk}/?tok=intl").content.decode())
    expected = {m: c["title"].split(" · ")[0] for (s, m), c in table.items() if s == "NiuTrans"}

    for tr in tree.findall('.//table[@id="meta-table"]/tbody/tr'):
        metric = tr.get("data-metric")
        signature = expected[metric]
        # chrF reads raw text, TER and the metrics of fixed preprocessing keep their own
        # (docs/metrics.md)
        assert signature_choice(metric, "intl", lowercase=False)[0] in signature
        assert all(f"({signature})" in td.get("title") for td in tr.findall("td"))


# ------------------------------------------------------------------ escaping


def test_names_and_texts_from_a_corpus_are_escaped(lead_client: Client, tmp_path: Path) -> None:
    evil = '<img src=x onerror="alert(1)">'
    corpus = corpus_import(
        source=write_corpus(
            tmp_path / "evil.xml", [("a <b> c",), ("d e",)], {evil: ["a <b> x", "d <e>"]}
        ),
        name="<script>corpus</script>",
    ).corpus
    pk = system_pk(corpus, evil)

    pages = [
        lead_client.get(f"/dashboard/{corpus.pk}/").content.decode(),
        lead_client.get(f"/dashboard/{corpus.pk}/system/{pk}/").content.decode(),
        lead_client.get(f"/dashboard/{corpus.pk}/chart/ranks.svg").content.decode(),
    ]

    for html in pages:
        assert evil not in html
        assert "<b>" not in html
        assert "<script>corpus" not in html
    assert "&lt;img src=x onerror=" in pages[0]
    assert "&lt;b&gt;" in pages[1]


# ------------------------------------------------------------------ queries

#: What a view of a choice being scored asks: the session and user, the corpus, the
#: stored statistics (none) and the pending job, once each (nothing built on the
#: statistics is asked for while they are pending).
WAITING_QUERIES = {"panel/table/": 5, "table.json": 5, "chart/bleu.svg": 5, "system/{system}/": 5}

#: Per URL the queries of a view that computes the parts derived from the judgments (the
#: first) and of a later one. Every view: the session, the user, the corpus (its
#: judgments stamp with it) and, the first time this process decodes them, its stored
#: automatic statistics (kept from then on under the texts stamp: annotation.dashboard.
#: sources.DECODED); the first view also reads the judgments, once for every panel (and,
#: where the judges panel shows, the control items, once: annotation.controls.quality).
#: The first view after a judgment changed: the first's queries but the statistics.
QUERIES = {
    # + the systems' primary keys (drill-down links), and once computed, the judges left
    # out of the figures (named in the header) and the sentences' documents (the
    # estimates' strata, read with the judgments)
    "/dashboard/{pk}/": (9, 4),
    # the table's human columns by the estimates: the same queries
    "/dashboard/{pk}/?rank=estimate": (9, 4),
    # the estimates: the judgments and the sentences' documents; remembered once
    # computed, as the meta panel
    "/dashboard/{pk}/panel/estimates/": (6, 3),
    # these panels show nothing but parts remembered once computed (which read the
    # systems' names from the statistics)
    "/dashboard/{pk}/panel/judges/?norm=z": (6, 3),
    "/dashboard/{pk}/panel/meta/": (5, 3),
    "/dashboard/{pk}/panel/effort/": (5, 3),
    "/dashboard/{pk}/panel/table/": (6, 4),
    "/dashboard/{pk}/panel/charts/": (6, 4),
    "/dashboard/{pk}/table.csv": (6, 4),
    # + the sentences' documents (each human figure's estimate)
    "/dashboard/{pk}/table.json": (7, 4),
    "/dashboard/{pk}/table.json?rank=estimate": (7, 4),
    # remembered once computed, as the meta panel
    "/dashboard/{pk}/meta.json": (5, 3),
    "/dashboard/{pk}/chart/ranks.svg": (6, 4),
    "/dashboard/{pk}/chart/sser.svg": (6, 4),
    # + the systems, the judgments of the two systems shown, the page's texts: whatever
    # is remembered, the drill-down reads its own system's judgments
    "/dashboard/{pk}/system/{system}/?metric=sser&other={other}": (7, 6),
}


#: The views that read the sentences' documents (the estimates' strata): once per
#: process and texts stamp (annotation.dashboard.figures.DOCUMENTS), so not again after
#: a judgment.
READ_DOCUMENTS = {
    "/dashboard/{pk}/",
    "/dashboard/{pk}/?rank=estimate",
    "/dashboard/{pk}/panel/estimates/",
    "/dashboard/{pk}/table.json",
    "/dashboard/{pk}/table.json?rank=estimate",
}


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, **HTMX).status_code == 200, url
    return len(queries)


@pytest.mark.parametrize("url", list(QUERIES))
def test_query_counts_do_not_grow_with_the_corpus(
    lead_client: Client, user_factory: Callable[..., User], tmp_path: Path, url: str
) -> None:
    """The same view of a corpus of 5 and of 50 judged sentences: a first view, a later
    one, and a view after a judgment changed cost the same number of queries (the last
    the first's but the stored statistics, decoded by then, and the sentences'
    documents, read by then)."""
    users = [user_factory("ann"), user_factory("bob")]
    counts = {}
    for size in (5, 50):
        corpus = sized_corpus(tmp_path, f"c{size}", size)
        scored(corpus)  # stored, as once its import's job is done
        add_judgments(corpus, users, 3 * size)
        address = url.format(
            pk=corpus.pk,
            system=system_pk(corpus, "system 0"),
            other=system_pk(corpus, "system 1"),
        )
        first = _queries(lead_client, address)
        later = _queries(lead_client, address)
        add_judgments(corpus, users[:1], 0)  # the stamp moves, as when a judgment changes
        counts[size] = (first, later, _queries(lead_client, address))

    after = QUERIES[url][0] - 1 - (url in READ_DOCUMENTS)
    assert counts[5] == counts[50] == (*QUERIES[url], after)


def test_a_new_preprocessing_choice_is_queued_for_a_worker_then_read_back(
    lead_client: Client, demo: Corpus, settings: Any
) -> None:
    """A choice never seen: the page never scores it. Its first view reads the stored
    row (none), queues the scoring job (its row, the queue's one record, in a savepoint)
    and shows its progress; a view while it waits only looks the job up. Once
    a worker has stored the statistics, the choice is read back as the default one is:
    the later page's five queries."""
    automatic_statistics(demo)  # the default choice stored, as once its import's job is done
    settings.TASKS = settings.QUEUED_TASKS
    url = f"/dashboard/{demo.pk}/?tok=char&case=lc"
    lead_client.get(f"/dashboard/{demo.pk}/")  # the parts derived from the judgments

    assert _queries(lead_client, url) == 5 + 1 + 3
    assert 'id="scoring"' in lead_client.get(url).content.decode()
    assert _queries(lead_client, url) == 5 + 1
    assert run_queued_jobs() == 1
    assert _queries(lead_client, url) == 5
    assert 'id="scoring"' not in lead_client.get(url).content.decode()


@pytest.mark.parametrize(
    "part", ["panel/table/", "table.json", "chart/bleu.svg", "system/{system}/"]
)
def test_what_waits_for_its_figures_looks_its_job_up_once(
    lead_client: Client, demo: Corpus, settings: Any, part: str
) -> None:
    """A panel, a download, a chart or the drill-down of a choice being scored answers
    202 with the job's progress, having asked for the pending job once."""
    settings.TASKS = settings.QUEUED_TASKS
    choice = "?tok=char&case=lc"
    lead_client.get(f"/dashboard/{demo.pk}/{choice}")  # queues the scoring
    url = f"/dashboard/{demo.pk}/{part.format(system=system_pk(demo))}{choice}"

    with CaptureQueriesContext(connection) as queries:
        response = lead_client.get(url, **HTMX)

    assert response.status_code == 202
    assert b'"scoring"' in response.content  # the block's id, or the JSON's status
    assert len(queries) == WAITING_QUERIES[part]


def test_the_agreement_shows_its_interval_where_ten_sentences_were_judged_twice(
    lead_client: Client, split: Corpus
) -> None:
    """Twelve sentences judged by two judges: SSER's α and r with their intervals, at
    full precision in ``data-ci-*`` and printed beside the coefficient."""
    found = view_of(split).get(judges_agreement)
    page = etree.HTML(lead_client.get(f"/dashboard/{split.pk}/panel/judges/", **HTMX).content)

    assert found.sentences == SPLIT_OVERLAP
    for name, coefficient in (("alpha", found.sser_alpha), ("pearson", found.sser_pearson)):
        iv = found.intervals[f"sser_{name}"]
        assert iv is not None
        shown = page.xpath(f'//*[@data-agreement="sser-{name}"]')[0]
        assert float(shown.get("data-ci-low")) == iv.low < coefficient.value
        assert float(shown.get("data-ci-high")) == iv.high > coefficient.value
        assert f"[{iv.low:.3f}, {iv.high:.3f}]" in "".join(shown.itertext())
    assert page.xpath('//*[@id="agreement-interval-note"]') == []


def test_an_agreement_on_six_sentences_says_why_it_has_no_interval(
    lead_client: Client, demo: Corpus
) -> None:
    page = etree.HTML(lead_client.get(f"/dashboard/{demo.pk}/panel/judges/", **HTMX).content)

    note = by_id(page, "agreement-interval-note")
    assert note.text == "no interval: too few sentences judged twice (n = 6)"
    assert page.xpath('//*[@data-agreement="sser-alpha"]')[0].get("data-ci-low") is None
