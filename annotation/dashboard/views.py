"""The leads' dashboard: thin views over :mod:`annotation.dashboard` (issue 5).

Every view is for leads only: a judge gets 404 (``annotation.web.lead_required``), an
anonymous visitor the login page (an htmx request a 401 with ``HX-Redirect`` to it, as on
the judge's page, so the login form is never swapped into a panel). Pages work without
JavaScript; with htmx the same view answers with the fragment whose root ``id`` is the
request's ``hx-target``: the whole ``#dashboard`` (preprocessing form, normalization
toggle), one panel (``#judges``'s refresh) or the drill-down's ``#drill``. Bad query
parameters answer 400 with a message naming the parameter.
"""

from __future__ import annotations

from functools import partial
from typing import Any
from urllib.parse import urlencode

from django.core.exceptions import BadRequest
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_GET

from annotation.corpora.api import mqm_json, mqm_tsv
from annotation.dashboard.board import PANELS, Dashboard, FiguresPending
from annotation.dashboard.drill import DRILL_ORDERS, DrillDown, drill_down
from annotation.dashboard.export import json_text, meta_json_text, table_csv
from annotation.dashboard.preprocessing import REF_LENGTH_CHOICES, TOKENIZE_CHOICES, Preprocessing
from annotation.dashboard.table import METRICS
from annotation.jobs import Job
from annotation.models import Corpus
from annotation.web import HtmxHttpRequest, attachment, lead_required
from metrics.json_out import json_dumps
from metrics.numerals import digits
from metrics.registry import metric_info
from metrics.stats import FAMILIES

NORMS = {"raw": False, "z": True}
#: ``rank``: the human columns ranked by the bootstrap on the judged sentences (default)
#: or by the estimates of the whole corpus (:mod:`annotation.dashboard.estimates`).
RANKS = {"bootstrap": False, "estimate": True}


def _corpus(pk: int) -> Corpus:
    return get_object_or_404(Corpus, pk=pk)


def _dashboard(request: HtmxHttpRequest, corpus: Corpus) -> Dashboard:
    """The dashboard the query parameters ask for (400 for a bad one)."""
    params = request.GET
    norm = params.get("norm") or "raw"
    if norm not in NORMS:
        raise BadRequest(f"norm={norm!r}: choose raw or z")
    rank = params.get("rank") or "bootstrap"
    if rank not in RANKS:
        raise BadRequest(f"rank={rank!r}: choose bootstrap or estimate")
    try:
        return Dashboard(
            corpus,
            Preprocessing.from_params(params),
            normalize=NORMS[norm],
            sort=params.get("sort") or "",
            by_estimate=RANKS[rank],
        )
    except ValueError as exc:
        raise BadRequest(str(exc)) from None


def _query(dash: Dashboard, **changes: str) -> str:
    """``?tok=…&case=…&reflen=…&bounds=…[&norm=z][&sort=…][&rank=estimate]`` with
    ``changes`` applied."""
    params = dash.preprocessing.params()
    if dash.normalize:
        params["norm"] = "z"
    if dash.sort:
        params["sort"] = dash.sort
    if dash.by_estimate:
        params["rank"] = "estimate"
    params.update(changes)
    return "?" + urlencode({k: v for k, v in params.items() if v})


def _columns(dash: Dashboard) -> list[dict[str, Any]]:
    """The table's header cells: label, sort link, the current sort direction, and for an
    imported metric its description and the direction it was imported with."""
    out = []
    tests = dash.table.tests
    descriptions = {m.name: m.description for m in dash.imported.metrics}
    for m, info in dash.table.infos.items():
        test = tests.get(m)
        higher = info.higher_is_better
        current = dash.sort.lstrip("-") == m
        worst_first = dash.sort.startswith("-")
        aria = "none"
        if current:
            # best first is ascending for an error rate, descending for BLEU/NIST
            aria = "descending" if higher != worst_first else "ascending"
        out.append(
            {
                "metric": m,
                "label": info.label,
                "higher": higher,
                "href": _query(dash, sort=f"-{m}" if current and not worst_first else m),
                "aria_sort": aria,
                "human": info.human,
                "family": info.family,
                "imported": info.family == "external",
                "description": descriptions.get(m, ""),
                "ranks": test.ranks if test is not None else "",
                "note": test.note if test is not None else "",
            }
        )
    return out


def _families(dash: Dashboard) -> list[dict[str, Any]]:
    """The heading row above the columns: each family and how many columns it spans
    (the columns stand grouped, :func:`~annotation.dashboard.table.table_columns`)."""
    out: list[dict[str, Any]] = []
    for c in _columns(dash):
        if out and out[-1]["family"] == c["family"]:
            out[-1]["span"] += 1
        else:
            out.append({"family": c["family"], "label": FAMILIES[c["family"]], "span": 1})
    return out


def _context(dash: Dashboard) -> dict[str, Any]:
    corpus = dash.corpus
    page_url = reverse("dashboard:page", args=[corpus.pk])
    return {
        "dash": dash,
        "corpus": corpus,
        "pre": dash.preprocessing,
        "page_url": page_url,
        "query": _query(dash),
        "query_pre": "?" + urlencode(dash.preprocessing.params()),
        "query_no_sort": _query(dash, sort=""),
        "norm_toggle": _query(dash, norm="" if dash.normalize else "z"),
        "rank_toggle": _query(dash, rank="" if dash.by_estimate else "estimate"),
        # called by the template that shows the table only (it reads the table's tests,
        # which the other panels never compute)
        "columns": partial(_columns, dash),
        "families": partial(_families, dash),
        "tokenizers": TOKENIZE_CHOICES,
        "ref_lengths": REF_LENGTH_CHOICES,
        "downloads": _downloads(dash),
    }


def _downloads(dash: Dashboard) -> dict[str, str]:
    """The table's CSV and its full-precision JSON and the meta-evaluation's JSON, for
    the page's choices."""
    pk, query = dash.corpus.pk, _query(dash, sort="")
    return {
        "csv": reverse("dashboard:table_csv", args=[pk]) + query,
        "json": reverse("dashboard:table_json", args=[pk]) + query,
        "meta_json": reverse("dashboard:meta_json", args=[pk]) + query,
        "mqm_tsv": reverse("dashboard:mqm_tsv", args=[pk]),
        "mqm_json": reverse("dashboard:mqm_json", args=[pk]),
    }


@lead_required
@require_GET
def index(request: HtmxHttpRequest) -> TemplateResponse:
    """Every corpus with its dashboard link (the home page links here too)."""
    return TemplateResponse(request, "dashboard/index.html", {"corpora": Corpus.objects.all()})


@lead_required
@require_GET
def page(request: HtmxHttpRequest, pk: int) -> TemplateResponse:
    """The whole dashboard; for htmx (preprocessing form, toggle) the ``#dashboard``
    fragment. While a worker computes the choice's figures (:attr:`Dashboard.waiting`:
    a choice never scored, a large backlog of the grown pool), the page shows the jobs'
    progress where the panels go and asks again every second (htmx), until the
    figures are there."""
    dash = _dashboard(request, _corpus(pk))
    if not dash.waiting:
        dash.prepare()
    else:
        dash.n_judgments  # noqa: B018 (the page header counts them)
    template = "dashboard/_dashboard.html" if request.htmx else "dashboard/page.html"
    return TemplateResponse(request, template, _context(dash))


@lead_required
@require_GET
def panel(request: HtmxHttpRequest, pk: int, name: str) -> HttpResponse:
    """One panel: its fragment for htmx, else a page with just that panel (linkable)."""
    corpus = _corpus(pk)
    if name not in PANELS:
        raise BadRequest(f"unknown panel {name!r}: choose one of {', '.join(PANELS)}")
    dash = _dashboard(request, corpus)
    try:
        dash.prepare(name)
    except FiguresPending:
        return _waiting(request, dash)
    context = {**_context(dash), "panel": name, "panel_template": f"dashboard/_{name}.html"}
    if request.htmx:
        return TemplateResponse(request, f"dashboard/_{name}.html", context)
    return TemplateResponse(request, "dashboard/panel.html", context)


@lead_required
@require_GET
def table(request: HtmxHttpRequest, pk: int, fmt: str) -> HttpResponse:
    """The metrics table as CSV (rounded as shown, with a ``Link`` to the full-precision
    JSON) or JSON (``manage.py scores --json``'s shape + ranks/CIs, full precision)."""
    dash = _dashboard(request, _corpus(pk))
    try:
        dash.prepare("table")
    except FiguresPending:
        return _waiting(request, dash, as_json=fmt == "json")
    if fmt == "csv":
        body, content_type = table_csv(dash.table), "text/csv; charset=utf-8"
    else:
        body = json_text(dash.table, dash.verdicts, dash.clusters, dash.estimates, dash.judge_aware)
        content_type = "application/json"
    response = HttpResponse(body, content_type=content_type)
    if fmt == "csv":  # rounded as shown: say where the full precision is
        full = _downloads(dash)["json"]
        response["Link"] = (
            f'<{full}>; rel="alternate"; type="application/json"; title="full precision"'
        )
    return attachment(response, f"{dash.corpus.name}-metrics", f".{fmt}")


@lead_required
@require_GET
def meta(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The meta-evaluation as JSON, at full precision (the panel's figures)."""
    dash = _dashboard(request, _corpus(pk))
    try:
        dash.prepare("meta")
    except FiguresPending:
        return _waiting(request, dash, as_json=True)
    body = meta_json_text(dash.corpus.name, dash.preprocessing.params(), dash.meta)
    response = HttpResponse(body, content_type="application/json")
    return attachment(response, f"{dash.corpus.name}-meta-evaluation", ".json")


@lead_required
@require_GET
def mqm(request: HtmxHttpRequest, pk: int, fmt: str) -> HttpResponse | StreamingHttpResponse:
    """The error spans of the corpus's done judgments in the WMT MQM layout
    (:mod:`annotation.corpora.mqm`): TSV, streamed, or JSON."""
    corpus = _corpus(pk)
    if fmt == "tsv":
        tsv = "text/tab-separated-values; charset=utf-8"
        return attachment(
            StreamingHttpResponse(mqm_tsv(corpus), content_type=tsv), f"{corpus.name}-mqm", ".tsv"
        )
    response = HttpResponse(mqm_json(corpus), content_type="application/json")
    return attachment(response, f"{corpus.name}-mqm", ".json")


@lead_required
@require_GET
def chart(request: HtmxHttpRequest, pk: int, name: str) -> HttpResponse:
    """One chart as an SVG file: ``ranks`` or a metric's bar chart."""
    dash = _dashboard(request, _corpus(pk))
    try:
        svg = dash.chart(name)
    except FiguresPending:
        return _waiting(request, dash)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    if request.GET.get("download"):
        # "chrf++" → "chrfpp": a file name keeps letters, digits, "-", "_" and "." only
        attachment(response, f"{dash.corpus.name}-{name.replace('+', 'p')}", ".svg")
    return response


@lead_required
@require_GET
def system(request: HtmxHttpRequest, pk: int, translator: int) -> HttpResponse:
    """A system's sentences sorted by a metric or by the difference to another system."""
    corpus = _corpus(pk)
    dash = _dashboard(request, corpus)
    if dash.waiting:  # the drill-down reads the statistics of every system
        return _waiting(request, dash)
    systems = {t: name for name, t in dash.translator_pks.items()}
    if translator not in systems:
        raise BadRequest(f"translator {translator} is not an MT system of {corpus.name!r}")
    params = request.GET
    other_pk = params.get("other") or ""
    if other_pk and (not digits(other_pk) or int(other_pk) not in systems):
        raise BadRequest(f"other={other_pk!r} is not an MT system of {corpus.name!r}")
    page_param = params.get("page") or "1"
    if not digits(page_param):
        raise BadRequest(f"page={page_param!r} must be a positive whole number")
    try:
        drill = drill_down(
            dash,
            systems[translator],
            metric=params.get("metric") or "wer",
            order=params.get("order") or "worst",
            other=systems[int(other_pk)] if other_pk else None,
            page=int(page_param),
        )
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    context = {**_context(dash), **_drill_context(dash, drill, translator, other_pk, systems)}
    template = "dashboard/_drill.html" if request.htmx else "dashboard/system.html"
    return TemplateResponse(request, template, context)


def _waiting(request: HtmxHttpRequest, dash: Dashboard, *, as_json: bool = False) -> HttpResponse:
    """What a panel, a chart, a download or the drill-down answers while its figures are
    computed: 202 with the jobs' progress (their JSON for ``table.json``'s scripts), or
    503 with the reason when one failed; ``Retry-After`` either way."""
    failed = any(job.status == Job.Status.FAILED for job in dash.waiting)
    status = 503 if failed else 202
    if as_json:
        body = {
            "corpus": dash.corpus.name,
            "status": "failed" if failed else "scoring",
            "jobs": [job.as_json() for job in dash.waiting],
        }
        response = HttpResponse(json_dumps(body, indent=None), "application/json", status=status)
    else:
        context = {**_context(dash), "polling": False}
        response = TemplateResponse(request, "dashboard/_waiting.html", context, status=status)
    response["Retry-After"] = "2"
    return response


def _drill_context(
    dash: Dashboard, drill: DrillDown, translator: int, other_pk: str, systems: dict[int, str]
) -> dict[str, Any]:
    """The drill-down's form (systems and metrics to choose), its page links and the way
    back to the dashboard."""
    url = reverse("dashboard:system", args=[dash.corpus.pk, translator])
    base = {
        **dash.preprocessing.params(),
        "metric": drill.metric,
        "order": drill.order,
        "other": other_pk,
    }

    def page_link(n: int) -> str:
        return url + "?" + urlencode({k: v for k, v in {**base, "page": str(n)}.items() if v})

    back = reverse("dashboard:page", args=[dash.corpus.pk]) + _query(dash, sort="", norm="")
    return {
        "drill": drill,
        "translator_pk": translator,
        "other_pk": int(other_pk) if other_pk else None,
        "systems": sorted(systems.items(), key=lambda kv: dash.systems.index(kv[1])),
        "system_url": url,
        "metrics": [(m, metric_info(m).label) for m in METRICS],
        "orders": DRILL_ORDERS,
        "previous_link": page_link(drill.page - 1) if drill.page > 1 else None,
        "next_link": page_link(drill.page + 1) if drill.page < drill.pages else None,
        "back_link": back,
    }
