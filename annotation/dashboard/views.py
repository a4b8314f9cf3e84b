"""The leads' dashboard: thin views over :mod:`annotation.dashboard` (issue 5).

Every view is for leads only: a judge gets 404 (``annotation.web.lead_required``), an
anonymous visitor the login page (an htmx request a 401 with ``HX-Redirect`` to it, as on
the judge's page, so the login form is never swapped into a panel). Pages work without
JavaScript; with htmx the same view answers with the fragment whose root ``id`` is the
request's ``hx-target``: the whole ``#dashboard`` (preprocessing form, normalization
toggle, a column heading: the table is sorted here, never in the browser), one panel
(``#judges``'s refresh) or the drill-down's ``#drill``. Bad query parameters answer 400
with a message naming the parameter.

A view reads its :class:`~annotation.dashboard.inputs.DashboardInputs` from the query,
builds what it shows (:mod:`annotation.dashboard.board`), and shows the jobs' progress
where it finds :class:`~annotation.dashboard.parts.Pending` instead.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.core.exceptions import BadRequest
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_GET

from annotation.corpora.api import (
    appraise_csv_lines,
    appraise_rows,
    chosen_file,
    default_scores,
    has_seg_score,
    mqm_json,
    mqm_tsv,
)
from annotation.dashboard.board import dashboard_page, dashboard_panel
from annotation.dashboard.drill import DRILL_ORDERS, DrillDown, drill_down
from annotation.dashboard.export import json_text, meta_json_text, table_csv
from annotation.dashboard.figures import estimates
from annotation.dashboard.inputs import DashboardInputs
from annotation.dashboard.panels import PANELS
from annotation.dashboard.panels.charts import chart_svg
from annotation.dashboard.panels.table import table_panel
from annotation.dashboard.paper import UnknownMetric, latex_table, paper_table, typst_table
from annotation.dashboard.parts import Parts, Pending
from annotation.dashboard.preprocessing import REF_LENGTH_CHOICES, TOKENIZE_CHOICES
from annotation.dashboard.sources import chosen_statistics, columns, corpus_systems, systems
from annotation.dashboard.table import ALL_METRICS
from annotation.models import Corpus
from annotation.web import HtmxHttpRequest, attachment, lead_required
from metrics.json_out import json_dumps
from metrics.numerals import digits

#: The paper's table formats: what writes each, and its content type.
PAPER_FORMATS = {
    "tex": (latex_table, "text/x-tex; charset=utf-8"),
    "typ": (typst_table, "text/vnd.typst; charset=utf-8"),
}


def _corpus(pk: int) -> Corpus:
    # with its campaign: the weighted estimates panel reads its rules (no query more)
    return get_object_or_404(Corpus.objects.select_related("campaign"), pk=pk)


def _parts(request: HtmxHttpRequest, corpus: Corpus) -> Parts:
    """The dashboard the query parameters ask for (400 for a bad one)."""
    try:
        return Parts(DashboardInputs.from_params(corpus, request.GET))
    except ValueError as exc:
        raise BadRequest(str(exc)) from None


def _context(inputs: DashboardInputs) -> dict[str, Any]:
    """What every template of the dashboard reads of the view's choices: their links
    and the forms' options."""
    corpus = inputs.corpus
    page_url = reverse("dashboard:page", args=[corpus.pk])
    return {
        "inputs": inputs,
        "corpus": corpus,
        "pre": inputs.preprocessing,
        "page_url": page_url,
        "query": inputs.query(),
        "query_pre": "?" + urlencode(inputs.preprocessing.params()),
        "norm_toggle": inputs.query(norm="" if inputs.normalize else "z"),
        "rank_toggle": inputs.query(rank="" if inputs.by_estimate else "estimate"),
        "tokenizers": TOKENIZE_CHOICES,
        "ref_lengths": REF_LENGTH_CHOICES,
        "downloads": _downloads(inputs),
        "panels": tuple(PANELS.values()),
    }


def _downloads(inputs: DashboardInputs) -> dict[str, str]:
    """The table's CSV and its full-precision JSON, its human column as a paper's LaTeX
    and Typst table, and the meta-evaluation's JSON, for the page's choices; the error
    spans; and where the corpus has them, its ESA judgments as Appraise's CSV and its
    human scores as mt-metrics-eval's files ("" where it has none)."""
    corpus = inputs.corpus
    pk, query = corpus.pk, inputs.query(sort="")
    scores = default_scores(corpus)
    seg = scores is not None and has_seg_score(corpus, scores)
    return {
        "csv": reverse("dashboard:table_csv", args=[pk]) + query,
        "json": reverse("dashboard:table_json", args=[pk]) + query,
        "tex": reverse("dashboard:table_tex", args=[pk]) + query,
        "typ": reverse("dashboard:table_typ", args=[pk]) + query,
        "meta_json": reverse("dashboard:meta_json", args=[pk]) + query,
        "mqm_tsv": reverse("dashboard:mqm_tsv", args=[pk]),
        "mqm_json": reverse("dashboard:mqm_json", args=[pk]),
        "appraise_csv": reverse("dashboard:appraise_csv", args=[pk]) if corpus.scores_esa else "",
        "seg_score": reverse("dashboard:seg_score", args=[pk]) if seg else "",
        "sys_score": reverse("dashboard:sys_score", args=[pk]) if scores is not None else "",
    }


@lead_required
@require_GET
def index(request: HtmxHttpRequest) -> TemplateResponse:
    """Every corpus with its dashboard link (the home page links here too)."""
    return TemplateResponse(request, "dashboard/index.html", {"corpora": Corpus.objects.all()})


@lead_required
@require_GET
def page(request: HtmxHttpRequest, pk: int) -> TemplateResponse:
    """The whole dashboard; for htmx (preprocessing form, toggles, a column's sort) the
    ``#dashboard`` fragment. While a worker computes the choice's figures (a choice
    never scored, a large backlog of the grown pool), the page shows the jobs' progress
    where the panels go and asks again every second (htmx), until the figures are
    there."""
    parts = _parts(request, _corpus(pk))
    shown = dashboard_page(parts)
    context = {
        **_context(parts.inputs),
        "header": shown.header,
        "shown": shown.shown,
        "pending": shown.pending,
    }
    template = "dashboard/_dashboard.html" if request.htmx else "dashboard/page.html"
    return TemplateResponse(request, template, context)


@lead_required
@require_GET
def panel(request: HtmxHttpRequest, pk: int, name: str) -> HttpResponse:
    """One panel: its fragment for htmx, else a page with just that panel (linkable)."""
    corpus = _corpus(pk)
    if name not in PANELS:
        raise BadRequest(f"unknown panel {name!r}: choose one of {', '.join(PANELS)}")
    parts = _parts(request, corpus)
    built = dashboard_panel(parts, name)
    if isinstance(built, Pending):
        return _waiting(request, parts.inputs, built)
    context = {
        **_context(parts.inputs),
        "panel": built,
        "panel_name": name,
        "panel_template": PANELS[name].template,
    }
    if request.htmx:
        return TemplateResponse(request, PANELS[name].template, context)
    return TemplateResponse(request, "dashboard/panel.html", context)


@lead_required
@require_GET
def table(request: HtmxHttpRequest, pk: int, fmt: str) -> HttpResponse:
    """The metrics table as CSV (rounded as shown, with a ``Link`` to the full-precision
    JSON), JSON (``manage.py scores --json``'s shape + ranks/CIs, full precision), or one
    of its columns (``?metric=``) as a paper's LaTeX or Typst table
    (:mod:`annotation.dashboard.paper`; ``?clusters=wmt``: grouped by WMT's clusters)."""
    parts = _parts(request, _corpus(pk))
    inputs = parts.inputs
    shown = parts.get(table_panel)
    if isinstance(shown, Pending):
        return _waiting(request, inputs, shown, as_json=fmt == "json")
    if fmt in PAPER_FORMATS:
        clusters = None
        if request.GET.get("clusters") == "wmt":  # WMT's clusters, not the bootstrap's
            clusters = [*([] if shown.clusters is None else [shown.clusters])]
            clusters += shown.protocol_clusters
        try:
            paper = paper_table(shown.table, request.GET.get("metric") or None, clusters)
        except UnknownMetric as exc:
            raise BadRequest(str(exc)) from None
        write, content_type = PAPER_FORMATS[fmt]
        response = HttpResponse(write(paper), content_type=content_type)
        return attachment(response, f"{inputs.corpus.name}-{paper.metric}", f".{fmt}")
    if fmt == "csv":
        body, content_type = table_csv(shown.table), "text/csv; charset=utf-8"
    else:
        found = parts.get(estimates)
        if isinstance(found, Pending):
            return _waiting(request, inputs, found, as_json=True)
        body = json_text(
            shown.table,
            shown.verdicts,
            shown.clusters,
            found,
            shown.judge_aware,
            shown.protocol_clusters,
        )
        content_type = "application/json"
    response = HttpResponse(body, content_type=content_type)
    if fmt == "csv":  # rounded as shown: say where the full precision is
        full = _downloads(inputs)["json"]
        response["Link"] = (
            f'<{full}>; rel="alternate"; type="application/json"; title="full precision"'
        )
    return attachment(response, f"{inputs.corpus.name}-metrics", f".{fmt}")


@lead_required
@require_GET
def meta(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The meta-evaluation as JSON, at full precision (the panel's figures)."""
    parts = _parts(request, _corpus(pk))
    inputs = parts.inputs
    found = dashboard_panel(parts, "meta")
    if isinstance(found, Pending):
        return _waiting(request, inputs, found, as_json=True)
    body = meta_json_text(inputs.corpus.name, inputs.preprocessing.params(), found)
    response = HttpResponse(body, content_type="application/json")
    return attachment(response, f"{inputs.corpus.name}-meta-evaluation", ".json")


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
def appraise(request: HtmxHttpRequest, pk: int) -> StreamingHttpResponse:
    """The corpus's ESA judgments as Appraise's ESA/DA CSV, streamed: ``export_appraise``'s
    file (:mod:`annotation.corpora.appraise_export`); 400 for a language without an ISO
    639-3 code."""
    corpus = _corpus(pk)
    try:
        rows = appraise_rows(corpus)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    csv_type = "text/csv; charset=utf-8"
    response = StreamingHttpResponse(appraise_csv_lines(rows), content_type=csv_type)
    return attachment(response, f"{corpus.name}-appraise", ".csv")


@lead_required
@require_GET
def mtme_scores(request: HtmxHttpRequest, pk: int, level: str) -> HttpResponse:
    """The corpus's scores ``?metric=`` (``esa``, ``mqm`` or an imported metric; by default
    :func:`~annotation.corpora.score_exports.default_scores`) as mt-metrics-eval's
    ``.seg.score`` or ``.sys.score``: ``export_scores --format mtme``'s file; 400 naming
    the scores there are when there are none of that name."""
    corpus = _corpus(pk)
    try:
        name, text = chosen_file(corpus, request.GET.get("metric"), level)
    except LookupError as exc:
        raise BadRequest(str(exc.args[0])) from None
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    return attachment(response, f"{corpus.name}.{name}", f".{level}.score")


@lead_required
@require_GET
def chart(request: HtmxHttpRequest, pk: int, name: str) -> HttpResponse:
    """One chart as an SVG file: ``ranks`` or a metric's bar chart."""
    parts = _parts(request, _corpus(pk))
    try:
        svg = chart_svg(parts, name)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    if isinstance(svg, Pending):
        return _waiting(request, parts.inputs, svg)
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    if request.GET.get("download"):
        # "chrf++" → "chrfpp": a file name keeps letters, digits, "-", "_" and "." only
        attachment(response, f"{parts.corpus.name}-{name.replace('+', 'p')}", ".svg")
    return response


@lead_required
@require_GET
def system(request: HtmxHttpRequest, pk: int, translator: int) -> HttpResponse:
    """A system's sentences sorted by a metric or by the difference to another system."""
    corpus = _corpus(pk)
    parts = _parts(request, corpus)
    auto = parts.get(chosen_statistics)
    if isinstance(auto, Pending):  # the drill-down reads the statistics of every system
        return _waiting(request, parts.inputs, auto)
    names = {t: name for name, t in parts.get(corpus_systems).pks.items()}
    if translator not in names:
        raise BadRequest(f"translator {translator} is not an MT system of {corpus.name!r}")
    params = request.GET
    other_pk = params.get("other") or ""
    if other_pk and (not digits(other_pk) or int(other_pk) not in names):
        raise BadRequest(f"other={other_pk!r} is not an MT system of {corpus.name!r}")
    page_param = params.get("page") or "1"
    if not digits(page_param):
        raise BadRequest(f"page={page_param!r} must be a positive whole number")
    try:
        drill = drill_down(
            parts,
            auto,
            names[translator],
            metric=params.get("metric") or "wer",
            order=params.get("order") or "worst",
            other=names[int(other_pk)] if other_pk else None,
            page=int(page_param),
        )
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    context = {
        **_context(parts.inputs),
        **_drill_context(parts, drill, translator, other_pk, names),
    }
    template = "dashboard/_drill.html" if request.htmx else "dashboard/system.html"
    return TemplateResponse(request, template, context)


def _waiting(
    request: HtmxHttpRequest, inputs: DashboardInputs, pending: Pending, *, as_json: bool = False
) -> HttpResponse:
    """What a panel, a chart, a download or the drill-down answers while its figures are
    computed: 202 with the jobs' progress (their JSON for ``table.json``'s scripts), or
    503 with the reason when one failed; ``Retry-After`` either way."""
    status = 503 if pending.failed else 202
    if as_json:
        body = {
            "corpus": inputs.corpus.name,
            "status": "failed" if pending.failed else "scoring",
            "jobs": [job.as_json() for job in pending.jobs],
        }
        response = HttpResponse(json_dumps(body, indent=None), "application/json", status=status)
    else:
        context = {**_context(inputs), "pending": pending, "polling": False}
        response = TemplateResponse(request, "dashboard/_waiting.html", context, status=status)
    response["Retry-After"] = "2"
    return response


def _drill_context(
    parts: Parts, drill: DrillDown, translator: int, other_pk: str, names: dict[int, str]
) -> dict[str, Any]:
    """The drill-down's form (systems and metrics to choose), its page links and the way
    back to the dashboard."""
    inputs = parts.inputs
    url = reverse("dashboard:system", args=[inputs.corpus.pk, translator])
    base = {
        **inputs.preprocessing.params(),
        "metric": drill.metric,
        "order": drill.order,
        "other": other_pk,
    }

    def page_link(n: int) -> str:
        return url + "?" + urlencode({k: v for k, v in {**base, "page": str(n)}.items() if v})

    back = reverse("dashboard:page", args=[inputs.corpus.pk]) + inputs.query(sort="", norm="")
    order = parts.get(systems)
    return {
        "drill": drill,
        "translator_pk": translator,
        "other_pk": int(other_pk) if other_pk else None,
        "systems": sorted(names.items(), key=lambda kv: order.index(kv[1])),
        "system_url": url,
        # the app's columns of the corpus (its protocol's human figures), not imported ones
        "metrics": [(m, i.label) for m, i in parts.get(columns).items() if m in ALL_METRICS],
        "orders": DRILL_ORDERS,
        "previous_link": page_link(drill.page - 1) if drill.page > 1 else None,
        "next_link": page_link(drill.page + 1) if drill.page < drill.pages else None,
        "back_link": back,
    }
