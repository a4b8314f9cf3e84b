"""What each fresh process of ``bench/pages.py`` does: build a step of the database, or
measure a group of pages. Each function runs in its own process (``pages.py --worker
NAME``) and returns a JSON-ready dict; :mod:`bench.pages` starts them, in order, and
prints the table.

A page is measured as the browser asks for it: through Django's test client (URL
routing, middleware, session, the view, the template; not the network nor a connection to
the database per request), logged in with ``force_login``, htmx requests with
``HX-Request: true``, redirects followed as the browser or htmx's XMLHttpRequest follows
them (each a request of its own, counted). A streamed response is read to its end inside
the clock. The SQL statements of each request are counted with
:class:`django.test.utils.CaptureQueriesContext`.

A figure is the median of several requests (:func:`repeat`): ``runs`` when a request
takes under a second, three when it takes seconds, and a single one when the first takes
over :data:`ONCE_OVER` seconds (the table says so).
"""

from __future__ import annotations

import html as html_lib
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: A request slower than this is measured once.
ONCE_OVER = 20.0
#: A request slower than this (but under ONCE_OVER) is measured three times.
SECONDS_OVER = 1.0
#: CaptureQueriesContext keeps the last 9,000 statements: a count this high is a floor.
QUERY_LOG_LIMIT = 9000

LEAD = "bench-lead"
JUDGE_PREFIX = "bench-judge"
HTMX = {"HTTP_HX_REQUEST": "true"}

OP_BUTTON = re.compile(r'name="op" value="([a-z]+:\d+:\d+[^"]*)"')
JUDGMENT = re.compile(r'data-judgment="(\d+)"')
NEW_REF_WORD = re.compile(r'data-action="edit-word" data-pos="(\d+)">([^<]*)</a>')


@dataclass
class Sample:
    """One request (or one chain of requests): its time, statements, request count."""

    seconds: float
    queries: int
    requests: int = 1
    body: bytes = b""
    cpu: float = 0.0  # this process's CPU seconds (the server's own work, not the database's)


@dataclass
class Figure:
    """The samples of one row of the table."""

    samples: list[Sample] = field(default_factory=list)
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        seconds = [s.seconds for s in self.samples]
        queries = [s.queries for s in self.samples]
        return {
            "median": statistics.median(seconds) if seconds else None,
            "cpu": statistics.median(s.cpu for s in self.samples) if seconds else None,
            "seconds": seconds,
            "queries": sorted(set(queries)),
            "requests": sorted({s.requests for s in self.samples}),
            "note": self.note,
        }


def setup() -> None:
    """Django, and the URLconf (every view module) imported as a server does at its first
    request whatever the page: not part of any one page's time."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    import django

    django.setup()
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018


@contextmanager
def counted() -> Iterator[list[str]]:
    """The SQL statements run meanwhile, counted as they run (``execute_wrapper``).

    Not Django's ``CaptureQueriesContext``: its debug cursor writes every statement out
    with its parameters, and a new choice's statistics (a 10 MB parameter) then cost the
    process tens of megabytes and milliseconds that no server spends (DEBUG is off)."""
    from django.db import connection

    statements: list[str] = []

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        yield statements


def request(
    client: Any,
    method: str,
    url: str,
    data: dict[str, str] | None = None,
    *,
    htmx: bool = False,
    follow: bool = True,
    expect: int = 200,
) -> Sample:
    """One request as the browser sends it, redirects followed (a 3xx by the browser or
    htmx's XMLHttpRequest, with the same headers; ``HX-Location`` and ``HX-Redirect`` by
    htmx), the body read to its end; time, statements and requests over the whole chain."""
    headers = dict(HTMX) if htmx else {}
    requests = 0
    body = b""
    with counted() as captured:
        start, cpu = time.perf_counter(), time.process_time()
        response = getattr(client, method)(url, data or {}, **headers)
        requests += 1
        while follow:
            if response.status_code in (301, 302, 303, 307, 308):
                url = response["Location"]
            elif htmx and response.has_header("HX-Location"):
                url = response["HX-Location"]
            elif htmx and response.has_header("HX-Redirect"):
                url, headers = response["HX-Redirect"], {}
            else:
                break
            response = client.get(url, **headers)
            requests += 1
        body = b"".join(response.streaming_content) if response.streaming else response.content
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    if response.status_code != expect:
        raise SystemExit(f"{method.upper()} {url}: HTTP {response.status_code}, not {expect}")
    return Sample(seconds, _count(captured), requests, body, cpu)


def _count(captured: list[str]) -> int:
    return len(captured)


def repeat(take: Callable[[], Sample], runs: int) -> Figure:
    """Median material: ``runs`` samples, three if one takes seconds, one if it takes
    over ONCE_OVER (see the module doc)."""
    first = take()
    figure = Figure([first])
    if first.seconds > ONCE_OVER:
        figure.note = f"measured once (over {ONCE_OVER:.0f} s)"
        return figure
    wanted = runs if first.seconds < SECONDS_OVER else min(runs, 3)
    while len(figure.samples) < wanted:
        figure.samples.append(take())
    return figure


def logged_in(username: str) -> Any:
    from django.test import Client

    from annotation.models import User

    client = Client()
    client.force_login(User.objects.get(username=username))
    return client


def _big_corpus(name: str) -> Any:
    from annotation.models import Corpus

    return Corpus.objects.get(name=name)


def _first_system(corpus: Any) -> Any:
    from annotation.models import Translator

    return corpus.translators.filter(role=Translator.Role.SYSTEM).order_by("position").first()


def _default_query() -> str:
    from urllib.parse import urlencode

    from annotation.dashboard.preprocessing import Preprocessing

    return "?" + urlencode(Preprocessing().params())


def rss_mb() -> dict[str, float]:
    """Peak (VmHWM) and current (VmRSS) resident memory of this process, in MB. Not
    getrusage's ru_maxrss: it survives execve, so a worker would start at its parent's
    peak."""
    found = {"VmHWM:": 0.0, "VmRSS:": 0.0}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            key = line.split(maxsplit=1)[0] if line.strip() else ""
            if key in found:
                found[key] = int(line.split()[1]) / 1024
    return {"peak_mb": found["VmHWM:"], "rss_mb": found["VmRSS:"]}


def build_migrate() -> dict[str, Any]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    import django

    django.setup()
    from django.core.management import call_command

    start = time.perf_counter()
    call_command("migrate", verbosity=0)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "restored": restore_default_statistics()}


def restore_default_statistics() -> list[str]:
    """A reused database built by an earlier engine (another metric set or layout) has no
    current default statistics: queue their scoring and compute it here, as a worker
    would after the import, so the first view is measured as right after an import and
    its job. The corpora restored."""
    from annotation.jobs import run_queued_jobs
    from annotation.models import Corpus, CorpusStatistics
    from annotation.statistics import scoring_job, stored_statistics

    restored = []
    for corpus in Corpus.objects.all():
        if stored_statistics(corpus) is None:
            CorpusStatistics.objects.filter(corpus=corpus).delete()
            scoring_job(corpus)
            restored.append(corpus.name)
    if restored:
        run_queued_jobs()
    return restored


def build_import(path: str, name: str) -> dict[str, Any]:
    """The import (it queues the default choice's scoring: :func:`build_scoring` runs it)."""
    setup()
    from annotation.corpora.imports import corpus_import

    start = time.perf_counter()
    summary = corpus_import(source=Path(path), name=name)
    return {
        "seconds": time.perf_counter() - start,
        "sentences": summary.sentences,
        "judgments": summary.judgments,
        **rss_mb(),
    }


def build_scoring() -> dict[str, Any]:
    """The scoring the imports queued, computed by a real worker process."""
    setup()
    return work_the_queue()


def work_the_queue() -> dict[str, Any]:
    """Run ``manage.py worker --batch`` (a real worker: it computes every queued job and
    exits) and read what it did from the jobs' rows: a row of the table whose median is
    the jobs' claim-to-done time (their rows' ``started_at`` to ``finished_at``), with
    the worker process's wall clock, CPU time and peak memory in its note."""
    from django.utils import timezone

    from annotation.jobs import Job
    from bench.common import manage, run_measured

    since = timezone.now()
    run = run_measured(manage("worker", "--batch", "--interval", "0.1"), dict(os.environ))
    jobs = list(Job.objects.filter(finished_at__gte=since).order_by("pk"))
    failed = [f"{job.label}: {job.error}" for job in jobs if job.status == Job.Status.FAILED]
    if failed:
        raise SystemExit("a job failed: " + "; ".join(failed))
    seconds = [(job.finished_at - job.started_at).total_seconds() for job in jobs]
    return {
        "median": sum(seconds),
        "seconds": [sum(seconds)],
        "queries": [],
        "jobs": [job.label for job in jobs],
        "note": (
            f"{len(jobs)} job{'s' if len(jobs) != 1 else ''} claim → done; the worker process "
            f"{run.seconds:.1f} s, {run.cpu:.1f} s CPU, {run.peak_mb:.0f} MB peak"
        ),
        "worker_seconds": run.seconds,
        "worker_cpu": run.cpu,
        "worker_peak_mb": run.peak_mb,
    }


def progress_shown(sample: Sample) -> str:
    """What a view showed instead of figures: ``#scoring`` or ``#pool-scoring`` (a job
    of a worker's), or "" when it showed the figures."""
    for block in ("scoring", "pool-scoring"):
        if f'id="{block}"'.encode() in sample.body:
            return block
    return ""


def build_accounts(corpora: list[str], judges: int) -> dict[str, Any]:
    """The lead and ``judges`` judge accounts, every one assigned to every corpus, made
    with the app's account service (``manage.py add_user``'s)."""
    setup()
    from annotation.accounts import user_upsert
    from annotation.models import Corpus, User

    start = time.perf_counter()
    chosen = list(Corpus.objects.filter(name__in=corpora))
    user_upsert(username=LEAD, password=f"{LEAD}-pw", role=User.Role.LEAD, corpora=chosen)
    for k in range(1, judges + 1):
        name = f"{JUDGE_PREFIX}-{k:02d}"
        user_upsert(username=name, password=f"{name}-pw", role=User.Role.JUDGE, corpora=chosen)
    return {"seconds": time.perf_counter() - start}


def build_judgments(corpus: str, sentences: int, per_candidate: int, judges: int) -> dict[str, Any]:
    setup()
    from bench.gen_judgments import generate_judgments, judge_pool

    big = _big_corpus(corpus)

    def progress(done: int, total: int) -> None:
        if done % 25 == 0 or done == total:
            print(f"      judgments: {done}/{total} sentences", file=sys.stderr, flush=True)

    made = generate_judgments(
        corpus=big,
        judges=judge_pool(big, judges, prefix=JUDGE_PREFIX),
        sentences=sentences,
        per_candidate=per_candidate,
        progress=progress,
    )
    return {**made.__dict__}


def analyze() -> dict[str, Any]:
    """PostgreSQL: ``ANALYZE``, what autovacuum does after a bulk load on a server where it
    is on; without it the planner estimates a few rows per corpus where there are
    thousands (and this machine's server runs with autovacuum off). SQLite: nothing
    (the app never runs its ANALYZE, so neither does the benchmark)."""
    setup()
    from django.db import connection

    if connection.vendor != "postgresql":
        return {"seconds": 0.0, "autovacuum": None}
    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        autovacuum = cursor.fetchone()[0]
        start = time.perf_counter()
        cursor.execute("ANALYZE")
        return {"seconds": time.perf_counter() - start, "autovacuum": autovacuum}


def facts() -> dict[str, Any]:
    """Sizes for the table's context line."""
    setup()
    from annotation.models import Corpus, Judgment, JudgmentEvent, User

    return {
        "corpora": list(Corpus.objects.values_list("name", "n_sentences", "n_systems")),
        "judgments": Judgment.objects.count(),
        "done": Judgment.objects.done().count(),
        "events": JudgmentEvent.objects.count(),
        "judges": User.objects.filter(role=User.Role.JUDGE, is_active=True).count(),
    }


def measure_home(runs: int) -> dict[str, Any]:
    setup()
    out = {}
    for key, user in (("home_lead", LEAD), ("home_judge", f"{JUDGE_PREFIX}-01")):
        client = logged_in(user)
        out[key] = repeat(lambda c=client: request(c, "get", "/"), runs).as_dict()
    return out


def measure_judge(corpus: str, runs: int) -> dict[str, Any]:
    """A judge's work on ``runs`` candidates in a row, one sample of each action per
    candidate: the page, an edit operation, the word editor and a word change, SSER,
    undo, SSER again (not timed) and accept & next (the whole chain). Everything it saved
    is removed afterwards, so a kept database stays as it was built."""
    setup()
    from annotation.models import Judgment, JudgmentEvent, User

    big = _big_corpus(corpus)
    judge = User.objects.get(username=f"{JUDGE_PREFIX}-01")
    client = logged_in(judge.username)
    last_judgment = Judgment.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    last_event = JudgmentEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    pending = list(Judgment.objects.filter(evaluator=judge, state=Judgment.State.PENDING).values())
    figures = {k: Figure() for k in ("page", "op", "editor", "word", "sser", "undo", "next")}
    try:
        warm = request(client, "get", f"/corpora/{big.pk}/judge/")  # continue → the page
        html = warm.body.decode()
        pk = int(JUDGMENT.search(html).group(1))  # type: ignore[union-attr]
        for _ in range(runs):
            html = _judge_one(client, pk, figures)
            pk = int(JUDGMENT.search(html).group(1))  # type: ignore[union-attr]
    finally:
        Judgment.objects.filter(pk__gt=last_judgment).delete()
        JudgmentEvent.objects.filter(pk__gt=last_event).delete()
        for row in pending:
            Judgment.objects.filter(pk=row.pop("id")).update(**row)
    out = {f"judge_{k}": f.as_dict() for k, f in figures.items()}
    return out


FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.DOTALL)
HX_POST = re.compile(r'hx-post="([^"]+)"')
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')


def form_of(html: str, action: str) -> tuple[str, dict[str, str]]:
    """What the page posts for the button ``data-action="<action>"``: its form's
    ``hx-post`` URL and hidden fields (the version among them), as htmx sends them."""
    for attrs, inner in FORM.findall(html):
        url = HX_POST.search(attrs)
        if url and f'data-action="{action}"' in inner:
            fields = {k: html_lib.unescape(v) for k, v in HIDDEN.findall(inner)}
            return html_lib.unescape(url.group(1)), fields
    raise SystemExit(f"no form with a {action!r} button on the judge's page")


def _judge_one(client: Any, pk: int, figures: dict[str, Figure]) -> str:
    """One candidate, each action posted as the page's own form says; returns the next
    candidate's page (accept & next's answer)."""
    url = f"/judgments/{pk}/"

    def post(button: str, html: str, **fields: str) -> Sample:
        target, hidden = form_of(html, button)
        return request(client, "post", target, {**hidden, **fields}, htmx=True)

    page = request(client, "get", url)
    figures["page"].samples.append(page)
    html = page.body.decode()
    ops = OP_BUTTON.findall(html)
    if ops:
        sample = post("op", html, op=ops[0])
        figures["op"].samples.append(sample)
    else:
        figures["op"].note = "a candidate without edit operations was skipped"
    editor = request(client, "get", f"{url}?edit=0", htmx=True)  # a click on word 1
    figures["editor"].samples.append(editor)
    html = editor.body.decode()
    word = NEW_REF_WORD.search(html)
    replacement = (html_lib.unescape(word.group(2)) if word else "word") + "s"
    sample = post("word-replace", html, action="replace", text=replacement)
    figures["word"].samples.append(sample)
    sample = post("sser", sample.body.decode(), sser="7")
    figures["sser"].samples.append(sample)
    sample = post("undo", sample.body.decode())
    figures["undo"].samples.append(sample)
    html = post("sser", sample.body.decode(), sser="8").body.decode()
    sample = post("accept-next", html)
    figures["next"].samples.append(sample)
    return sample.body.decode()


def measure_dashboard(corpus: str, runs: int, cold_only: bool = False) -> dict[str, Any]:
    """The first view in this fresh process (the statistics the import's job stored, the
    human figures computed), then what a running server answers: later views, every panel, the
    downloads, charts, drill-down."""
    setup()
    from annotation.dashboard.board import PANELS

    big = _big_corpus(corpus)
    client = logged_in(LEAD)
    page = f"/dashboard/{big.pk}/"
    query = _default_query()
    # The lead reaches the dashboard from the home page, and a server process has loaded
    # its middleware and URLs before its first request (``evaltool.wsgi`` does both when
    # the worker starts): the first view is timed after the home page, not with them.
    request(client, "get", "/")
    out = {"dash_first": Figure([request(client, "get", page)]).as_dict()}
    if cold_only:
        return out
    out["dash_later"] = repeat(lambda: request(client, "get", page), runs).as_dict()
    for name in PANELS:
        url = f"{page}panel/{name}/{query}"
        out[f"panel_{name}"] = repeat(
            lambda u=url: request(client, "get", u, htmx=True), runs
        ).as_dict()
    downloads = {
        "csv": f"{page}table.csv{query}",
        "json": f"{page}table.json{query}",
        "svg_bleu": f"{page}chart/bleu.svg{query}&download=1",
        "svg_ranks": f"{page}chart/ranks.svg{query}&download=1",
    }
    for key, url in downloads.items():
        out[key] = repeat(lambda u=url: request(client, "get", u), runs).as_dict()
    system = _first_system(big)
    drill = f"{page}system/{system.pk}/{query}"
    out["drill"] = repeat(lambda: request(client, "get", drill), runs).as_dict()
    out["choices"] = new_choices()
    return out


def forget_stored_choices(corpus: Any) -> None:
    """Delete the statistics stored for every choice but the import's default one, and
    the grown pool's, so the next request of another choice computes them as the first
    one ever does."""
    from annotation.models import CorpusStatistics, PoolStatistics
    from annotation.statistics import default_choice

    CorpusStatistics.objects.filter(corpus=corpus).exclude(choice=default_choice(corpus)).delete()
    PoolStatistics.objects.filter(corpus=corpus).delete()


def measure_preprocessing(corpus: str, params: str) -> dict[str, Any]:
    """A choice never seen before, as the preprocessing form asks for it (htmx, the
    ``#dashboard`` fragment), the server warm with the default view: the first request
    (it queues the choice's scoring and answers at once with ``#scoring``, its
    progress), the job in a real worker, then the view that reads the stored figures."""
    setup()
    big = _big_corpus(corpus)
    forget_stored_choices(big)
    client = logged_in(LEAD)
    page = f"/dashboard/{big.pk}/"
    request(client, "get", page)  # the page the lead is on (warm: default choices cached)
    first = request(client, "get", f"{page}?{params}", htmx=True)
    out = {"pre": _shown(first)}
    if progress_shown(first):
        out["pre_job"] = work_the_queue()
        out["pre_after"] = _shown(request(client, "get", f"{page}?{params}", htmx=True))
    return out


def _shown(sample: Sample) -> dict[str, Any]:
    """A one-request row, its note saying what the view showed: progress or figures."""
    figure = Figure([sample]).as_dict()
    block = progress_shown(sample)
    figure["note"] = f"#{block}: a worker's job, figures to come" if block else "its figures"
    return figure


def measure_pool(corpus: str, step: str, on_the_page: int | None = None) -> dict[str, Any]:
    """The grown pool (``refs=pool``), in a fresh process each ``step``:

    * ``first``: never scored (its stored statistics deleted), as the preprocessing form
      asks for it, the server warm with the default view: the page (a backlog this large
      queues a pool job and answers at once with ``#pool-scoring``), the job in a real
      worker, then the view that reads the pool it stored;
    * ``stored``: another process's first view of the pool stored by ``first``;
    * ``one``: the same after one sentence's pool changed (its fingerprint in the stored
      row altered, as a judgment finished since would: the bench's judgments stay as
      built), so that sentence is scored again (on the page: a small backlog).

    ``on_the_page`` sets the largest backlog scored on the page (``--quick``: 0, so the
    smoke run's small pool takes the pool job's path too)."""
    setup()
    from django.conf import settings

    from annotation.models import PoolStatistics

    if on_the_page is not None:
        settings.EVALTOOL_POOL_ON_THE_PAGE = on_the_page

    big = _big_corpus(corpus)
    client = logged_in(LEAD)
    page = f"/dashboard/{big.pk}/"
    query = [q for label, q in new_choices() if label == "refs=pool"][0]
    stored = PoolStatistics.objects.filter(corpus=big)
    if step == "first":
        stored.delete()
    if step == "one":
        row = stored.get()
        prints = bytearray(row.fingerprints)
        prints[0] ^= 0xFF  # the first sentence: one the bench's judges judged
        stored.update(fingerprints=bytes(prints))
    request(client, "get", page)  # the page the lead is on (warm: default choices cached)
    shown = request(client, "get", f"{page}?{query}", htmx=True)
    out = {f"pool_{step}": _shown(shown)}
    if progress_shown(shown):
        out[f"pool_{step}_job"] = work_the_queue()
        after = request(client, "get", f"{page}?{query}", htmx=True)
        out[f"pool_{step}_after"] = _shown(after)
    return out


def measure_moved_word(corpus: str) -> dict[str, Any]:
    """The dashboard's first view after a judge moved a word across a boundary (one
    system's candidates of two sentences changed: what ``judgment_move_word`` does to the
    texts): the stored statistics are stale, so the view queues their update and shows
    ``#scoring``; the job in a real worker (it scores the changed candidates again); the
    view with the figures. Then the word moved back, the same again, so the database
    ends as it was (its stamps moved on)."""
    setup()
    from django.db import transaction

    from annotation.changes import candidates_changed
    from annotation.models import Target

    big = _big_corpus(corpus)
    client = logged_in(LEAD)
    page = f"/dashboard/{big.pk}/"
    request(client, "get", page)  # warm, as a server worker is
    system = _first_system(big)
    pair = list(
        Target.objects.filter(
            sentence__corpus=big, translator=system, sentence__position__in=(5, 6)
        ).order_by("sentence__position")
    )
    before = [t.text for t in pair]
    out: dict[str, Any] = {}
    for key, texts in (("moved", _word_moved(before)), ("moved_back", before)):
        with transaction.atomic():
            for target, text in zip(pair, texts, strict=True):
                target.text = text
            Target.objects.bulk_update(pair, ["text"])
            candidates_changed(big.pk, pair)
        shown = request(client, "get", page)
        out[key] = _shown(shown)
        if progress_shown(shown):
            out[f"{key}_job"] = work_the_queue()
            out[f"{key}_after"] = _shown(request(client, "get", page))
    out["moved"]["note"] += "; one system's candidates of two sentences changed"
    return out


def _word_moved(texts: list[str]) -> list[str]:
    """The last word of the first text moved to the start of the second."""
    first, second = texts[0].split(), texts[1].split()
    return [" ".join(first[:-1]), " ".join(first[-1:] + second)]


def measure_export(corpus: str, runs: int) -> dict[str, Any]:
    """The lead's download link: time to the first chunk of the body, and to its end."""
    setup()
    big = _big_corpus(corpus)
    client = logged_in(LEAD)
    url = f"/corpora/{big.pk}/export.xml"
    first, whole = Figure(), Figure()
    size = 0
    for _ in range(max(1, min(runs, 3))):
        with counted() as captured:
            start, cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            chunks = (
                iter(response.streaming_content) if response.streaming else iter([response.content])
            )
            head = next(chunks, b"")
            ttfb, ttfb_cpu = time.perf_counter() - start, time.process_time() - cpu
            size = len(head) + sum(len(c) for c in chunks)
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        if response.status_code != 200:
            raise SystemExit(f"GET {url}: HTTP {response.status_code}")
        first.samples.append(Sample(ttfb, _count(captured), cpu=ttfb_cpu))
        whole.samples.append(Sample(seconds, _count(captured), cpu=cpu))
    share = statistics.median(
        f.seconds / w.seconds for f, w in zip(first.samples, whole.samples, strict=True)
    )
    first.note = (
        f"{size / 1e6:.1f} MB; the first byte comes at {100 * share:.0f}% of the whole time"
    )
    whole.note = "a streamed response" if response.streaming else "one body"
    return {"export_first": first.as_dict(), "export_whole": whole.as_dict(), "bytes": size}


def measure_export_command(corpus: str, out: str) -> dict[str, Any]:
    """``manage.py export_evaltrans`` without the interpreter's start-up: the command
    itself, timed inside a fresh process once Django is set up."""
    setup()
    from django.core.management import call_command

    with open(os.devnull, "w") as quiet:
        start = time.perf_counter()
        call_command("export_evaltrans", corpus, output=Path(out), stderr=quiet)
        return {"seconds": time.perf_counter() - start}


def export_command_wall(corpus: str, out: str, env: dict[str, str]) -> float:
    """``python manage.py export_evaltrans NAME -o FILE`` as a lead types it: whole run."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "manage.py", "export_evaltrans", corpus, "-o", out],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - start


#: The preprocessing choices of the tour (each computes a new set of statistics).
TOUR_CHOICES = ("tok=char", "tok=intl", "case=lc", "reflen=average", "bounds=yes")


def new_choices() -> list[tuple[str, str]]:
    """Every preprocessing choice but the default, one parameter changed at a time, as
    (``name=value``, the query string the preprocessing form sends)."""
    from dataclasses import replace
    from urllib.parse import urlencode

    from annotation.dashboard.preprocessing import (
        REF_LENGTH_CHOICES,
        TOKENIZE_CHOICES,
        Preprocessing,
    )

    default = Preprocessing()
    choices = [replace(default, tokenize=t) for t in TOKENIZE_CHOICES]
    choices += [replace(default, lowercase=True)]
    choices += [replace(default, ref_length=r) for r in REF_LENGTH_CHOICES]
    choices += [replace(default, sentence_boundaries=True)]
    choices += [replace(default, pool=True)]  # the judges' new references as references
    out = []
    for choice in choices:
        changed = [f"{k}={v}" for k, v in choice.params().items() if default.params()[k] != v]
        if changed:
            out.append((",".join(changed), urlencode(choice.params())))
    return out


def measure_tour(corpus: str) -> dict[str, Any]:
    """Peak memory of one server-like process (a fresh one) after a full
    dashboard tour: the page, every panel, the downloads, every chart, two drill-downs,
    the export, several preprocessing choices and the grown pool never scored (each
    queues its job and shows its progress), then, once a real worker has computed them
    (not this process: its memory is not the server's), each of them again with its
    figures."""
    setup()
    from annotation.dashboard.board import PANELS
    from annotation.dashboard.table import METRICS

    before = rss_mb()
    big = _big_corpus(corpus)
    forget_stored_choices(big)
    client = logged_in(LEAD)
    page = f"/dashboard/{big.pk}/"
    query = _default_query()
    start = time.perf_counter()
    plain = [page, f"{page}table.csv{query}", f"{page}table.json{query}"]
    plain += [f"{page}chart/{name}.svg{query}" for name in ("ranks", *METRICS)]
    systems = list(
        big.translators.filter(role="system").order_by("position").values_list("pk", flat=True)
    )
    plain += [f"{page}system/{systems[0]}/{query}", f"{page}system/{systems[-1]}/{query}"]
    plain += [f"/corpora/{big.pk}/export.xml"]
    htmx = [f"{page}panel/{name}/{query}" for name in PANELS]
    pool = [q for label, q in new_choices() if label == "refs=pool"][0]
    scored = [f"{page}?{q}" for label, q in new_choices() if label in TOUR_CHOICES]
    scored += [f"{page}?{pool}"]
    for url in plain:
        request(client, "get", url)
    for url in htmx + scored:
        request(client, "get", url, htmx=True)
    worker = work_the_queue()  # not timed as the tour's: the worker's own process
    start += worker["worker_seconds"]
    for url in scored:
        request(client, "get", url, htmx=True)
    requests = len(plain) + len(htmx) + 2 * len(scored)
    return {
        "tour": {
            **rss_mb(),
            "before_peak_mb": before["peak_mb"],
            "requests": requests,
            "worker_peak_mb": worker["worker_peak_mb"],
            "jobs": len(worker["jobs"]),
        },
        "tour_seconds": time.perf_counter() - start,
    }


WORKERS: dict[str, Callable[..., dict[str, Any]]] = {
    "migrate": build_migrate,
    "import": build_import,
    "scoring": build_scoring,
    "accounts": build_accounts,
    "judgments": build_judgments,
    "facts": facts,
    "analyze": analyze,
    "home": measure_home,
    "judge": measure_judge,
    "dashboard": measure_dashboard,
    "preprocessing": measure_preprocessing,
    "pool": measure_pool,
    "moved-word": measure_moved_word,
    "export": measure_export,
    "export-command": measure_export_command,
    "tour": measure_tour,
}
