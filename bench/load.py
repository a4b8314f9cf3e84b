"""Crowds of judges at once through ``make serve``: ``python bench/load.py [--check]``.

Prints its figures, then a summary table (one row per figure the many-judges issue
tracks: work, measured, goal) to paste into a note; ``--check`` exits 1 when one is past
its budget (paced p95, actions per second at full speed, judgments lost, the dashboard's
first view: :class:`bench.common.Verdicts`; by hand, not in CI).

What it proves (production issue): with a crowd of judges working at once on real servers,

* **at a realistic pace** (each judge one action every ``--pace`` seconds, jittered; the
  first at a random moment of the first ``--pace`` seconds, so a crowd's arrivals are
  spread over the pace) the 95th percentile of an action's time, as the judge's browser
  sees it (every redirect followed), stays within 150 ms, also while a lead imports a
  second corpus and a worker scores it;
* **at full speed** (no pause between actions) the servers answer at least 60 actions a
  second on a 2-core machine;
* **the dashboard after the judges**: the lead's first view of the corpus's dashboard,
  on each server in turn (the next may find what the first computed), within 300 ms;
* **nothing is lost and nothing is invented**: every action that got a success answer is
  in the export afterwards, exactly as that answer showed it, and nothing a judge was told
  was refused is; no request fails (5xx or a broken connection).

``--judges`` and ``--pace`` name one crowd (default: 20 judges, one action each 2 s) or
several, run one after the other on the same servers and database (``--judges 20 200
--pace 2 10``: the many-judges issue's two crowds; one ``--pace`` is every crowd's).

Set-up, each run: a fresh database (SQLite in a temp dir, or the PostgreSQL database
``--pg-database``, default ``evaltool_load``, dropped and created, and dropped again at the
end), a corpus from ``bench/gen_corpus.py`` at its real size by default (1,000 sentences ×
3 references × 20 systems, as a real campaign's: a smaller one hides what grows with the
corpus; smaller with ``--sentences``, ``--references``, ``--systems``), scored as a worker
scores it, its judges shown the system's live figures (``--figures on``, as in a named
corpus: the costlier page; ``off`` or ``auto``, a blind corpus's default, hide them), the
largest crowd's judge accounts made and assigned to it in one process (as ``add_user
--role judge --corpus`` makes each), a second corpus file of the same size for each crowd,
and ``--servers`` ``make serve`` processes on free ports (each with ``WEB_CONCURRENCY``
workers; with two or more, one shared Redis cache is used, and the judges are spread over
the servers; ``--redis-db`` picks the Redis database). The judges log in once, a few at a
time, before the first phase: logging in is not part of the measured work.

Each crowd's phases, each ``--seconds`` long (full speed: half as long): paced, full
speed, paced **while a second corpus is imported and scored** (the lead's
``import_evaltrans`` without ``--wait``, the job worker scoring it; the phase lasts until
it is scored, ``--seconds`` at least), then paced and full speed again **with a lead at
work** (the budgets hold there too): while the judges work, one lead (``load-lead``, on
the last server) opens the dashboard with three preprocessing choices no server has seen
(each answer queues its scoring: pages never score), then the pool view (``refs=pool``),
and polls each view every second, as the page does, until its figures are shown (at most
``--lead-wait`` seconds after the phase). One job worker (``manage.py worker``, as ``make
run`` starts one) runs beside the servers throughout: it computes those choices, scores
the second corpus and fills the HTER counts of accepted judgments. Each phase prints its
p50, p95, max, actions a second (those answered, over the time from its start to its
last answer) and lost judgments, the lead's times, and the machine's load average when
it began. After a crowd's phases, the lead's first view of the corpus's dashboard on
each server in turn.

Afterwards (the worker stopped) the lead opens the dashboard with a preprocessing choice no
server has seen, first on the first server (which queues its scoring: pages never score), a
worker computes and stores it (``manage.py worker --batch``), then the lead opens it on
the last server: with two servers that answer shows that what was computed once every
server serves warm (from the database: no server keeps it on its own disk).

An interrupted run (Ctrl-C, a kill, a closed terminal) stops its servers and worker and
drops its PostgreSQL database on its way out.

A judge's actions are those of the judge's page, sent as htmx sends them: open the next
candidate, accept one or two of its edit operations, score SSER, accept & next. Each answer
is checked: the fragment's ``data-version`` and new reference are what the next action
builds on, as the page does.
"""

from __future__ import annotations

import argparse
import contextlib
import html
import http.cookiejar
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.browser import free_port, manage, wait_until_up  # noqa: E402
from bench.common import Budget, Verdicts, add_check_option, production_env  # noqa: E402

#: Every figure of the run against its budget (``--check``).
VERDICTS = Verdicts()
PACED_P95 = Budget(150, "ms")
FULL_SPEED = Budget(60, "actions/s", at_least=True)
LOST = Budget(0, "judgments")
#: The lead's first view of the dashboard after the judges, on any server.
FIRST_VIEW = Budget(300, "ms")
#: Judges logging in at once (each login hashes a password: CPU-bound on the servers).
LOGIN_THREADS = 8

PASSWORD = "load-pw"
CORPUS = "load"
LEAD = "load-lead"
#: A preprocessing choice the import did not store: its first view computes it.
NEW_CHOICE = "tok=intl&case=lc&reflen=nearest&bounds=no"
#: The three choices no server has seen that the lead opens during each phase with the
#: lead (paced, then full speed: two a crowd), and the pool view it opens after them.
LEAD_CHOICES = (
    (
        "tok=char&case=mixed&reflen=nearest&bounds=no",
        "tok=none&case=lc&reflen=average&bounds=no",
        "tok=nopunct&case=mixed&reflen=closest&bounds=yes",
    ),
    (
        "tok=13a%2Bcontractions&case=lc&reflen=best&bounds=no",
        "tok=char&case=lc&reflen=average&bounds=yes",
        "tok=none&case=mixed&reflen=best&bounds=yes",
    ),
    # a second crowd's (a third crowd's are the first's again: seen by then)
    (
        "tok=nopunct&case=lc&reflen=nearest&bounds=no",
        "tok=char&case=mixed&reflen=best&bounds=yes",
        "tok=intl&case=mixed&reflen=average&bounds=no",
    ),
    (
        "tok=none&case=lc&reflen=closest&bounds=yes",
        "tok=nopunct&case=mixed&reflen=average&bounds=no",
        "tok=13a%2Bcontractions&case=mixed&reflen=nearest&bounds=yes",
    ),
)
POOL_VIEW = "refs=pool"
#: How long the lead waits for a dashboard view: ``make serve``'s request timeout.
LEAD_TIMEOUT = 300.0
#: The dashboard's block of a choice still being computed (its htmx polls every second).
WAITING = re.compile(r'<section id="(?:pool-)?scoring"[^>]*aria-busy="true"')
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
PG_SERVER = "postgres://postgres@127.0.0.1:5432"

VERSION = re.compile(r'data-version="(\d+)"')
JUDGMENT = re.compile(r'data-judgment="(\d+)"')


def judgment_and_version(page: str) -> tuple[int | None, int]:
    """The judgment a judge's page (or fragment) shows and its version (0: none), which
    the next action names, as the page's script reads them."""
    found, version = JUDGMENT.search(page), VERSION.search(page)
    return (int(found.group(1)) if found else None), (int(version.group(1)) if version else 0)


NEW_REF = re.compile(r'id="new-ref"[^>]*data-text="([^"]*)"')
OP = re.compile(r'name="op" value="([a-z]+:\d+:\d+[^"]*)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Redirects are followed by hand, so each hop is timed as part of its action."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


@dataclass
class Outcome:
    """One action: its kind, its time (all hops), its final status, and for a success the
    judgment's state the answer showed."""

    kind: str
    seconds: float
    status: int
    judgment: int | None = None
    new_ref: str | None = None
    sser: int | None = None


@dataclass
class Judge:
    """One judge's browser: its cookies, the page it shows, what it was told."""

    name: str
    base: str
    opener: urllib.request.OpenerDirector = field(init=False)
    #: The browser's cookies (its session): a judge logs in once, and each phase's
    #: :meth:`again` works on with them.
    jar: http.cookiejar.CookieJar = field(default_factory=http.cookiejar.CookieJar)
    csrf: str = ""
    judgment: int | None = None
    version: int = 0
    page: str = ""
    outcomes: list[Outcome] = field(default_factory=list)
    #: Seconds a request may take before it counts as a broken connection (the lead's
    #: views may take as long as the server's own timeout).
    timeout: float = 30.0
    #: (new reference, SSER) of every judgment whose accept got a success answer
    accepted: list[tuple[str, int]] = field(default_factory=list)
    sser: int | None = None

    def __post_init__(self) -> None:
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect()
        )

    def request(
        self, path: str, data: dict[str, str] | None = None, *, htmx: bool = False
    ) -> tuple[int, str, str]:
        """One request and every redirect after it: (final status, final URL, body). A
        POST is sent as htmx sends it; a GET too with ``htmx``."""
        url = self.base + path
        body = None if data is None else urllib.parse.urlencode(data).encode()
        headers = {"HX-Request": "true", "Referer": url} if data is not None or htmx else {}
        if self.csrf:
            headers["X-CSRFToken"] = self.csrf
        for _ in range(5):
            request = urllib.request.Request(url, data=body, headers=headers)
            try:
                with self.opener.open(request, timeout=self.timeout) as response:
                    return response.status, url, response.read().decode()
            except urllib.error.HTTPError as error:
                if error.code in {301, 302, 303}:
                    url = urllib.parse.urljoin(url, error.headers["Location"])
                    body, headers = None, {}
                    continue
                return error.code, url, error.read().decode()
        return 599, url, ""

    def get(self, path: str, *, htmx: bool = False) -> tuple[int, str]:
        """A GET as :meth:`request`, a broken connection or a timeout answered 598."""
        try:
            status, _, page = self.request(path, htmx=htmx)
        except OSError:
            return 598, ""
        return status, page

    def log_in(self) -> None:
        _, _, page = self.request("/accounts/login/")
        token = CSRF.search(page)
        assert token is not None, "no CSRF token on the login page"
        self.csrf = token.group(1)
        status, _, _ = self.request(
            "/accounts/login/",
            {"username": self.name, "password": PASSWORD, "csrfmiddlewaretoken": self.csrf},
        )
        cookies = {c.name: c.value for c in self.jar}
        self.csrf = cookies.get("csrftoken") or self.csrf
        if status != 200:
            raise SystemExit(f"{self.name}: login answered {status}")

    def again(self) -> Judge:
        """The same browser (its session) with no page open yet and nothing told: the
        judge in the next phase."""
        return Judge(self.name, self.base, jar=self.jar, csrf=self.csrf, timeout=self.timeout)

    def show(self, page: str) -> None:
        """Read the page (or fragment) as the browser would: the judgment and version."""
        self.page = page
        self.judgment, self.version = judgment_and_version(page)

    def act(self, kind: str, path: str, data: dict[str, str] | None = None) -> Outcome:
        start = time.perf_counter()
        try:
            status, _, page = self.request(path, data)
        except OSError:
            status, page = 598, ""
        outcome = Outcome(kind, time.perf_counter() - start, status)
        if status == 200:
            before = self.judgment
            self.show(page)
            new_ref = NEW_REF.search(page)
            outcome.judgment = before if kind == "accept" else self.judgment
            outcome.new_ref = html.unescape(new_ref.group(1)) if new_ref else None
        self.outcomes.append(outcome)
        return outcome


def one_step(judge: Judge, rng: random.Random, corpus_pk: int) -> None:
    """The judge's next action, chosen from the page it shows."""
    if judge.judgment is None:
        judge.act("open", f"/corpora/{corpus_pk}/judge/")
        judge.sser = None
        return
    pk, version = judge.judgment, str(judge.version)
    ops = OP.findall(judge.page)
    if ops and rng.random() < 0.6 and judge.sser is None:
        judge.act("op", f"/judgments/{pk}/op/", {"op": rng.choice(ops), "version": version})
    elif judge.sser is None:
        score = rng.randint(0, 10)
        if (
            judge.act(
                "sser", f"/judgments/{pk}/sser/", {"sser": str(score), "version": version}
            ).status
            == 200
        ):
            judge.sser = score
    else:
        new_ref = NEW_REF.search(judge.page)
        shown = html.unescape(new_ref.group(1)) if new_ref else ""
        outcome = judge.act("accept", f"/judgments/{pk}/accept/", {"version": version})
        if outcome.status == 200:
            judge.accepted.append((" ".join(shown.split()), judge.sser))
        judge.sser = None


def work(judge: Judge, corpus_pk: int, stop: threading.Event, pace: float, seed: int) -> None:
    """The judge's actions until ``stop``: paced, the first at a random moment of the
    first ``pace`` seconds (judges do not all start on the same second: a crowd's
    arrivals are spread over the pace), then one every ``pace`` seconds, jittered."""
    rng = random.Random(seed)
    if pace > 0 and stop.wait(rng.uniform(0.0, pace)):
        return
    while not stop.is_set():
        started = time.perf_counter()
        one_step(judge, rng, corpus_pk)
        if pace > 0:
            pause = rng.uniform(0.5 * pace, 1.5 * pace) - (time.perf_counter() - started)
            stop.wait(max(pause, 0.0))


def crowd_names(judges: int) -> list[str]:
    return [f"load-judge-{k + 1}" for k in range(judges)]


def log_in_crowd(bases: list[str], judges: int) -> list[Judge]:
    """``judges`` judges logged in, spread over the servers, a few at a time (a login
    hashes its password: ~0.5 s of a core each): once a run, never in the measured work."""
    crowd = [Judge(name, bases[k % len(bases)]) for k, name in enumerate(crowd_names(judges))]
    with ThreadPoolExecutor(max_workers=LOGIN_THREADS) as pool:
        list(pool.map(Judge.log_in, crowd))
    return crowd


def run_judges(
    sessions: list[Judge], corpus_pk: int, pace: float, stop: threading.Event
) -> list[Judge]:
    """The judges of ``sessions`` (logged in) at work until ``stop``; this phase's judges."""
    crowd = [judge.again() for judge in sessions]
    threads = [
        threading.Thread(target=work, args=(j, corpus_pk, stop, pace, k), daemon=True)
        for k, j in enumerate(crowd)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return crowd


def run_judges_for(
    sessions: list[Judge], corpus_pk: int, seconds: float, pace: float
) -> tuple[list[Judge], float]:
    """:func:`run_judges` for ``seconds``; the phase's judges and its length, from its
    start to its last answer: the actions per second count every action answered, and
    with 200 judges at full speed the answers still due when the phase ends are seconds
    of the servers' work."""
    stop = threading.Event()
    timer = threading.Timer(seconds, stop.set)
    start = time.perf_counter()
    timer.start()
    try:
        return run_judges(sessions, corpus_pk, pace, stop), time.perf_counter() - start
    finally:
        timer.cancel()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def summary(crowd: list[Judge], seconds: float) -> dict[str, object]:
    outcomes = [o for j in crowd for o in j.outcomes]
    by_kind: dict[str, list[float]] = defaultdict(list)
    for o in outcomes:
        by_kind[o.kind].append(o.seconds)
    return {
        "actions": len(outcomes),
        "per_second": len(outcomes) / seconds,
        "p50": percentile([o.seconds for o in outcomes], 0.5),
        "p95": percentile([o.seconds for o in outcomes], 0.95),
        "max": max((o.seconds for o in outcomes), default=float("nan")),
        "by_kind": {
            k: (len(v), percentile(v, 0.5), percentile(v, 0.95)) for k, v in by_kind.items()
        },
        "statuses": dict(sorted(Counter(o.status for o in outcomes).items())),
        "busy": sum(o.status == 503 for o in outcomes),
        "errors": sum(o.status >= 500 and o.status != 503 for o in outcomes),
    }


# --- the lead, during a phase ----------------------------------------------------------------


@dataclass
class LeadView:
    """One dashboard view the lead asked for: its query, its first answer's time and
    status, then (while a worker computes it) how long until its figures were shown and
    how many polls that took."""

    query: str
    first: float = float("nan")
    status: int = 0
    done_after: float | None = None
    polls: int = 0
    poll_seconds: list[float] = field(default_factory=list)


def lead_at_work(base: str, pk: int, choices: tuple[str, ...], until: float) -> list[LeadView]:
    """One lead while the judges work: opens the dashboard with each of ``choices`` (none
    seen by any server: each answer queues its scoring), then the pool view, then polls
    every second, as the page's htmx does, each view still waiting, until its figures are
    shown or ``until`` (a perf_counter time) has passed."""
    lead = Judge(LEAD, base, timeout=LEAD_TIMEOUT)
    lead.log_in()
    views = [LeadView(q) for q in (*choices, POOL_VIEW)]
    started = {}
    for view in views:
        start = time.perf_counter()
        view.status, page = lead.get(f"/dashboard/{pk}/?{view.query}")
        view.first = time.perf_counter() - start
        started[view.query] = start
        if view.status == 200 and not WAITING.search(page):
            view.done_after = view.first
    while time.perf_counter() < until and any(v.done_after is None for v in views):
        time.sleep(1.0)
        for view in views:
            if view.done_after is not None:
                continue
            start = time.perf_counter()
            status, page = lead.get(f"/dashboard/{pk}/?{view.query}", htmx=True)
            view.poll_seconds.append(time.perf_counter() - start)
            view.polls += 1
            if status == 200 and not WAITING.search(page):
                view.done_after = time.perf_counter() - started[view.query]
    return views


def run_phase_with_lead(
    bases: list[str],
    sessions: list[Judge],
    corpus_pk: int,
    args: argparse.Namespace,
    seconds: float,
    pace: float,
    choices: tuple[str, ...],
) -> tuple[list[Judge], list[LeadView], float]:
    """The judges' phase with one lead at work beside them (on the last server), the
    lead's views polled until their figures are shown (at most ``--lead-wait`` seconds
    after the phase); its judges, the lead's views, and the judges' time
    (:func:`run_judges_for`)."""
    found: list[LeadView] = []
    until = time.perf_counter() + seconds + args.lead_wait
    lead = threading.Thread(
        target=lambda: found.extend(lead_at_work(bases[-1], corpus_pk, choices, until)),
        daemon=True,
    )
    lead.start()
    crowd, elapsed = run_judges_for(sessions, corpus_pk, seconds, pace)
    lead.join()
    return crowd, found, elapsed


@dataclass
class SecondCorpus:
    """The second corpus of a phase: its file, its name, and the seconds from the
    phase's start until it was imported, then until a worker had scored it."""

    path: Path
    name: str
    imported: float = float("nan")
    scored: float = float("nan")


QUEUED_JOB = re.compile(r"\bjob (\d+)\b")


def run_phase_with_import(
    env: dict[str, str],
    sessions: list[Judge],
    corpus_pk: int,
    seconds: float,
    pace: float,
    second: SecondCorpus,
) -> tuple[list[Judge], float]:
    """The judges at work while the lead imports ``second`` (``import_evaltrans``
    without ``--wait``, as a lead does: the scoring is queued) and the job worker scores
    it; the phase lasts until it is scored, ``seconds`` at least. Returns the phase's
    judges and its length (until its last answer)."""
    stop = threading.Event()
    crowd: list[Judge] = []
    judges = threading.Thread(
        target=lambda: crowd.extend(run_judges(sessions, corpus_pk, pace, stop)), daemon=True
    )
    start = time.perf_counter()
    judges.start()
    try:
        out = manage(env, "import_evaltrans", str(second.path), "--name", second.name)
        second.imported = time.perf_counter() - start
        job = QUEUED_JOB.search(out)
        if job is None:
            raise SystemExit(f"import_evaltrans named no scoring job: {out!r}")
        manage(env, "jobs", "--wait", job.group(1))
        second.scored = time.perf_counter() - start
        stop.wait(max(0.0, start + seconds - time.perf_counter()))
    finally:
        stop.set()
        judges.join()
    return crowd, time.perf_counter() - start


def dashboard_first_views(bases: list[str], pk: int) -> list[float]:
    """Seconds of the lead's first view of the corpus's dashboard after the judges, on
    each server in turn (logged in on each first): the first server computes what the
    judgments changed, the next may find it computed by the first."""
    leads = [Judge(LEAD, base, timeout=LEAD_TIMEOUT) for base in bases]
    for lead in leads:
        lead.log_in()
    seconds = []
    for lead in leads:
        start = time.perf_counter()
        status, _ = lead.get(f"/dashboard/{pk}/")
        seconds.append(time.perf_counter() - start)
        if status != 200:
            raise SystemExit(f"dashboard answered {status} on {lead.base}")
    return seconds


def start_worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    """One ``manage.py worker`` beside the servers, as ``make run`` starts one: it
    computes the lead's choices and fills the HTER counts of accepted judgments."""
    return subprocess.Popen(
        [sys.executable, "manage.py", "worker", "--interval", "0.5"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def stop_worker(worker: subprocess.Popen[bytes]) -> None:
    worker.send_signal(signal.SIGTERM)
    try:
        worker.wait(timeout=120)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


# --- set-up and verification ---------------------------------------------------------------


def fresh_database(kind: str, workdir: Path, pg_database: str) -> dict[str, str]:
    if kind == "postgres":
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", pg_database):
            raise SystemExit(f"--pg-database {pg_database!r}: lower-case letters, digits, _")
        for sql in (f"DROP DATABASE IF EXISTS {pg_database}", f"CREATE DATABASE {pg_database}"):
            subprocess.run(["psql", PG_ADMIN, "-q", "-c", sql], check=True, capture_output=True)
        env = production_env(workdir)
        env["DATABASE_URL"] = f"{PG_SERVER}/{pg_database}"
    else:
        env = production_env(workdir, "load.sqlite3")
    env["ALLOWED_HOSTS"] = "127.0.0.1"
    return env


def corpus_file(path: Path, args: argparse.Namespace, seed: int) -> Path:
    """A generated corpus of the run's size (``seed``: another corpus's texts)."""
    from bench.gen_corpus import generate_corpus

    with path.open("wb") as out:
        generate_corpus(
            out,
            sentences=args.sentences,
            references=args.references,
            systems=args.systems,
            seed=seed,
        )
    return path


#: The judges' accounts, made in one process: each as ``add_user --role judge --corpus``
#: makes it, but with one password hash for all (hashing it 200 times would take minutes).
ACCOUNTS = """
from django.contrib.auth.hashers import make_password
from annotation.models import Corpus, User
corpus = Corpus.objects.get(name={corpus!r})
password = make_password({password!r})
for name in {names!r}:
    user, _ = User.objects.update_or_create(
        username=name,
        defaults=dict(
            role=User.Role.JUDGE, is_active=True, must_change_password=False, password=password
        ),
    )
    user.assigned_corpora.add(corpus)
"""


def set_up(env: dict[str, str], workdir: Path, args: argparse.Namespace) -> None:
    """The corpus imported and scored (``--wait``: as a worker would have scored it before
    the judges start), the lead's and the judges' accounts."""
    path = corpus_file(workdir / "load.xml", args, seed=0)
    manage(env, "migrate", "--noinput")
    manage(env, "import_evaltrans", str(path), "--name", CORPUS, "--wait")
    manage(env, "figures", CORPUS, f"--{args.figures}")
    manage(env, "add_user", LEAD, "--password", PASSWORD, "--role", "lead")
    names = crowd_names(max(args.judges))
    manage(env, "shell", "-c", ACCOUNTS.format(corpus=CORPUS, password=PASSWORD, names=names))


def start_servers(
    env: dict[str, str], count: int, workers: int, processes: list[subprocess.Popen[bytes]]
) -> list[str]:
    """``count`` ``make serve`` processes, one after the other (each runs collectstatic
    into the same directory first: started together, they would race on it); their base
    URLs. Each is added to ``processes`` as it starts, so that an interrupted start still
    stops those started."""
    bases = []
    for _ in range(count):
        port = free_port()
        server_env = {
            **env,
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "WEB_CONCURRENCY": str(workers),
        }
        processes.append(
            subprocess.Popen(
                ["make", "-s", "serve"],
                cwd=ROOT,
                env=server_env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base)
        bases.append(base)
    return bases


def stop_servers(processes: list[subprocess.Popen[bytes]]) -> None:
    for p in processes:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(p.pid, signal.SIGTERM)
    for p in processes:
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def drop_database(pg_database: str) -> None:
    """The run's PostgreSQL database dropped (its servers and worker stopped first)."""
    subprocess.run(
        ["psql", PG_ADMIN, "-q", "-c", f"DROP DATABASE IF EXISTS {pg_database} WITH (FORCE)"],
        check=True,
        capture_output=True,
    )


def exported_judgments(env: dict[str, str]) -> dict[str, Counter[tuple[str, int]]]:
    """Per evaluator, the (new reference, SSER) of each done judgment the export holds."""
    from lxml import etree

    with tempfile.NamedTemporaryFile(suffix=".xml") as out:
        manage(env, "export_evaltrans", CORPUS, "-o", out.name)
        tree = etree.parse(out.name)
    exported: dict[str, Counter[tuple[str, int]]] = defaultdict(Counter)
    for ev in tree.iter("eval"):
        if ev.get("evaluator") and ev.get("state") != "pending":
            new_ref = " ".join((ev.findtext("newRef") or "").split())
            exported[ev.get("evaluator") or ""][(new_ref, int(ev.get("sser", "-1")))] += 1
    return exported


def lost_and_invented(
    exported: dict[str, Counter[tuple[str, int]]], crowd: list[Judge]
) -> tuple[int, int, int]:
    """(accepts checked, accepted judgments missing from the export or different there,
    done judgments in the export that no success answer accounts for), judge by judge:
    the export's (new reference, SSER) of each evaluator's done judgments must be exactly
    those its success answers showed (``crowd``: every phase's, one judge once)."""
    checked = missing = invented = 0
    for judge in crowd:
        told = Counter(judge.accepted)
        stored = exported.get(judge.name, Counter())
        checked += sum(told.values())
        missing += sum((told - stored).values())
        invented += sum((stored - told).values())
    return checked, missing, invented


def lost_in(exported: dict[str, Counter[tuple[str, int]]], crowd: list[Judge]) -> int:
    """Accepted judgments of one phase missing from the export or different there."""
    return sum(sum((Counter(j.accepted) - exported.get(j.name, Counter())).values()) for j in crowd)


def dashboard_across_servers(
    env: dict[str, str], bases: list[str], pk: int
) -> tuple[float, float, float]:
    """Seconds of the lead's first view of a new choice on the first server (it queues the
    scoring), of a worker's scoring, then of the same view on the last server (a fresh
    login there, as a lead on another machine)."""
    seconds = []
    for base in (bases[0], bases[-1]):
        lead = Judge(LEAD, base)
        lead.log_in()
        start = time.perf_counter()
        status, _, _ = lead.request(f"/dashboard/{pk}/?{NEW_CHOICE}")
        seconds.append(time.perf_counter() - start)
        assert status == 200, f"dashboard answered {status} on {base}"
        if len(seconds) == 1:
            start = time.perf_counter()
            manage(env, "worker", "--batch")
            seconds.append(time.perf_counter() - start)
    return seconds[0], seconds[1], seconds[2]


def corpus_pk(env: dict[str, str]) -> int:
    out = manage(
        env,
        "shell",
        "-c",
        f"from annotation.models import Corpus; print(Corpus.objects.get(name={CORPUS!r}).pk)",
    )
    return int(out.strip().splitlines()[-1])


def crowds_of(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[Crowd]:
    """The crowds ``--judges`` and ``--pace`` name, in order (one pace: every crowd's)."""
    paces = args.pace * len(args.judges) if len(args.pace) == 1 else args.pace
    if len(paces) != len(args.judges):
        parser.error(f"--pace: {len(args.pace)} values for {len(args.judges)} crowds (--judges)")
    if min(args.judges) < 1 or min(paces) <= 0:
        parser.error("--judges and --pace: positive numbers")
    return [Crowd(n, pace) for n, pace in zip(args.judges, paces, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument(
        "--judges", type=int, nargs="+", default=[20], help="judges of each crowd, in turn"
    )
    parser.add_argument(
        "--pace",
        type=float,
        nargs="+",
        default=[2.0],
        help="seconds between a judge's actions (one value, or one a crowd)",
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each phase")
    parser.add_argument("--servers", type=int, default=1)
    parser.add_argument("--workers", type=int, default=3, help="WEB_CONCURRENCY of each server")
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--references", type=int, default=3)
    parser.add_argument("--systems", type=int, default=20)
    parser.add_argument(
        "--figures", choices=["on", "off", "auto"], default="on", help="judges see live figures"
    )
    parser.add_argument(
        "--pg-database", default="evaltool_load", help="PostgreSQL database (dropped first)"
    )
    parser.add_argument("--redis-db", type=int, default=15, help="Redis database (2+ servers)")
    parser.add_argument(
        "--lead-wait",
        type=float,
        default=240.0,
        help="seconds the lead keeps polling its views after a phase with the lead",
    )
    add_check_option(parser)
    args = parser.parse_args()
    crowds = crowds_of(parser, args)
    kinds = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    # A terminal closed or a kill ends the run as Ctrl-C does: through the clean-up below.
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, interrupted)
    table: list[tuple[str, str, str]] = []
    for kind in kinds:
        with tempfile.TemporaryDirectory(prefix="evaltool-load-") as tmp:
            workdir = Path(tmp)
            env = fresh_database(kind, workdir, args.pg_database)
            try:
                table += run_on(kind, env, workdir, args, crowds)
            finally:
                if kind == "postgres":
                    drop_database(args.pg_database)
    print_table(table)
    VERDICTS.finish(args.check)


def progress(what: str, since: float | None) -> None:
    """A line on standard error as the run goes (a full run takes long), with the
    seconds since ``since``."""
    took = "" if since is None else f" ({time.perf_counter() - since:.0f} s)"
    print(f"[{time.strftime('%H:%M:%S')}] {what}{took}", file=sys.stderr, flush=True)


def interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def run_on(
    kind: str,
    env: dict[str, str],
    workdir: Path,
    args: argparse.Namespace,
    crowds: list[Crowd],
) -> list[tuple[str, str, str]]:
    """The whole run on one database: set-up, every crowd's phases and first views, the
    new choice across servers, the export checked; the summary table's rows."""
    if args.servers > 1:
        env["CACHE_URL"] = f"redis://127.0.0.1:6379/{args.redis_db}"
    start = time.perf_counter()
    set_up(env, workdir, args)
    progress(f"{kind}: corpus imported and scored, accounts made", start)
    others = [
        SecondCorpus(corpus_file(workdir / f"second-{k}.xml", args, seed=k), f"{CORPUS}-{k}")
        for k in range(1, len(crowds) + 1)
    ]
    progress(f"{kind}: {len(others)} second corpus file(s) generated", start)
    pk = corpus_pk(env)
    processes: list[subprocess.Popen[bytes]] = []
    worker = None
    try:
        bases = start_servers(env, args.servers, args.workers, processes)
        worker = start_worker(env)
        start = time.perf_counter()
        everyone = log_in_crowd(bases, max(c.judges for c in crowds))
        progress(f"{kind}: {len(everyone)} judges logged in", start)
        runs = [
            run_crowd(env, bases, everyone[: crowd.judges], pk, args, crowd, k, second)
            for k, (crowd, second) in enumerate(zip(crowds, others, strict=True))
        ]
        stop_worker(worker)
        dashboard = dashboard_across_servers(env, bases, pk)
    finally:
        if worker is not None and worker.poll() is None:
            stop_worker(worker)
        stop_servers(processes)
    exported = exported_judgments(env)
    phases = [phase for run in runs for phase in run.phases]
    everyone = merge([j for phase in phases for j in phase.crowd])
    label = "SQLite" if kind == "sqlite" else "PostgreSQL"
    report(label, args, runs, exported, lost_and_invented(exported, everyone), dashboard)
    return [row for run in runs for row in table_rows(label, run, len(bases))]


@dataclass(frozen=True)
class Crowd:
    """A crowd of judges (the first ``judges`` accounts) and their pace."""

    judges: int
    pace: float


@dataclass
class CrowdRun:
    """One crowd's phases, and the lead's first view of the dashboard after them on each
    server (seconds, in the servers' order)."""

    crowd: Crowd
    phases: list[Phase]
    second: SecondCorpus
    first_views: list[float]


#: The phase with a second corpus imported and scored.
IMPORTING = "paced, a second corpus imported and scored"


def run_crowd(
    env: dict[str, str],
    bases: list[str],
    sessions: list[Judge],
    pk: int,
    args: argparse.Namespace,
    crowd: Crowd,
    index: int,
    second: SecondCorpus,
) -> CrowdRun:
    """The crowd's phases, each ``--seconds`` long (full speed: half as long; the import:
    until it is scored): paced, full speed, paced while ``second`` is imported and scored,
    then paced and full speed with the lead at work; then the lead's first views."""
    lead_choices = LEAD_CHOICES[2 * index % len(LEAD_CHOICES) :][:2]
    phases = []
    for title, seconds, pace, choices in (
        ("paced", args.seconds, crowd.pace, ()),
        ("full speed", args.seconds / 2, 0.0, ()),
        (IMPORTING, args.seconds, crowd.pace, ()),
        ("paced, with the lead", args.seconds, crowd.pace, lead_choices[0]),
        ("full speed, with the lead", args.seconds / 2, 0.0, lead_choices[1]),
    ):
        uptime = os.getloadavg()
        views: list[LeadView] = []
        if title == IMPORTING:
            judges, seconds = run_phase_with_import(env, sessions, pk, seconds, pace, second)
        elif choices:
            judges, views, seconds = run_phase_with_lead(
                bases, sessions, pk, args, seconds, pace, choices
            )
        else:
            judges, seconds = run_judges_for(sessions, pk, seconds, pace)
        phases.append(Phase(title, seconds, pace, judges, views, uptime))
        progress(f"{crowd.judges} judges: {title}, {seconds:.0f} s, done", None)
    return CrowdRun(crowd, phases, second, dashboard_first_views(bases, pk))


@dataclass
class Phase:
    """One phase: its judges (their outcomes), its lead's views (none: no lead), and the
    machine's load average when it began (the machine is shared)."""

    title: str
    seconds: float
    pace: float
    crowd: list[Judge]
    lead: list[LeadView]
    load: tuple[float, float, float]


def merge(crowd: list[Judge]) -> list[Judge]:
    """The same judge's phases as one (accepted judgments of all), the phases' own left
    as they are."""
    out: dict[str, Judge] = {}
    for judge in crowd:
        if judge.name not in out:
            out[judge.name] = Judge(judge.name, judge.base)
        out[judge.name].accepted.extend(judge.accepted)
    return list(out.values())


def ms(seconds: object) -> str:
    return f"{1000 * float(cast(float, seconds)):.0f} ms"


def report(
    label: str,
    args: argparse.Namespace,
    runs: list[CrowdRun],
    exported: dict[str, Counter[tuple[str, int]]],
    check: tuple[int, int, int],
    dashboard: tuple[float, float, float],
) -> None:
    lost = VERDICTS.judge(f"{label}: lost or different", check[1], LOST)
    print(
        f"\n{label}: {args.servers} server(s) × {args.workers} workers, one job worker; "
        f"corpus {args.sentences} sentences × {args.references} references × "
        f"{args.systems} systems, live figures {args.figures}"
    )
    for run in runs:
        print(f" {run.crowd.judges} judges, one action every {run.crowd.pace:g} s when paced:")
        for phase in run.phases:
            report_phase(f"{label}: {run.crowd.judges} judges, {phase.title}", phase, exported)
            if phase.title == IMPORTING:
                print(
                    f"    {run.second.name}: imported after {run.second.imported:.1f} s, "
                    f"scored after {run.second.scored:.1f} s"
                )
        views = ", ".join(f"server {k} {ms(s)}" for k, s in enumerate(run.first_views, start=1))
        print(f"  dashboard, the lead's first view after the judges: {views}")
    checked, missing, invented = check
    print(
        f"  export afterwards: {checked} accepted judgments checked, "
        f"{missing} missing or different {lost}, {invented} not accounted for"
    )
    first, scoring, other = dashboard
    where = "the other server" if args.servers > 1 else "the same server, new login"
    print(
        f"  dashboard, a new preprocessing choice: first view {ms(first)} (scoring queued), "
        f"a worker's scoring {scoring:.1f} s, then on {where} {ms(other)}"
    )


def report_phase(what: str, phase: Phase, exported: dict[str, Counter[tuple[str, int]]]) -> None:
    found = summary(phase.crowd, phase.seconds)
    pace = f"one action every {phase.pace:g} s per judge" if phase.pace else "no pause"
    load = " ".join(f"{v:.2f}" for v in phase.load)
    per_second = cast(float, found["per_second"])
    rate = (
        ""
        if phase.pace
        else f" (budget {FULL_SPEED}) " + VERDICTS.judge(what, per_second, FULL_SPEED)
    )
    p95 = (
        f" (budget {PACED_P95}) "
        + VERDICTS.judge(f"{what} p95", 1000 * cast(float, found["p95"]), PACED_P95)
        if phase.pace
        else ""
    )
    print(
        f"  {phase.title} ({pace}) for {phase.seconds:.0f} s, load average {load}: "
        f"{found['actions']} actions, {per_second:.1f} actions/s{rate}"
    )
    print(
        f"    p50 {ms(found['p50'])}, p95 {ms(found['p95'])}{p95}"
        + f", max {ms(found['max'])}; errors {found['errors']}, busy (503) "
        f"{found['busy']}, lost {lost_in(exported, phase.crowd)}; "
        f"statuses {found['statuses']}"
    )
    for k, (n, p50, p95) in sorted(found["by_kind"].items()):  # type: ignore[attr-defined]
        print(f"    {k:<7} {n:>5} actions  p50 {ms(p50):>7}  p95 {ms(p95):>7}")
    for view in phase.lead:
        polls = sorted(view.poll_seconds)
        done = "not shown" if view.done_after is None else f"shown after {view.done_after:.1f} s"
        print(
            f"    lead: ?{view.query}: first view {ms(view.first)} ({view.status}), "
            f"figures {done}, {view.polls} polls"
            + (f" (p50 {ms(percentile(polls, 0.5))})" if polls else "")
        )


def in_seconds(value: object) -> str:
    return f"{float(cast(float, value)):.3f} s"


def table_rows(label: str, run: CrowdRun, servers: int) -> list[tuple[str, str, str]]:
    """The summary's rows of one crowd, as the issue's table names its figures: (work,
    value, goal)."""
    n, pace = run.crowd.judges, run.crowd.pace
    found = {phase.title: summary(phase.crowd, phase.seconds) for phase in run.phases}
    paced, importing, full = found["paced"], found[IMPORTING], found["full speed"]
    views = [VERDICTS.judge(f"{label}: first view", 1000 * s, FIRST_VIEW) for s in run.first_views]
    on_servers = "either server" if servers > 1 else "the server"
    return [
        (
            f"{label}: {n} judges, one action each {pace:g} s: p95",
            in_seconds(paced["p95"]),
            f"{PACED_P95}",
        ),
        (
            f"{label}: {n} judges, one action each {pace:g} s, while a second corpus is "
            "imported and scored",
            f"p95 {in_seconds(importing['p95'])}, max {in_seconds(importing['max'])}",
            f"{PACED_P95} (p95)",
        ),
        (
            f"{label}: {n} judges at full speed",
            f"{cast(float, full['per_second']):.1f} actions/s, p50 {in_seconds(full['p50'])}",
            f"{FULL_SPEED}",
        ),
        (
            f"{label}: dashboard on {on_servers}, first view after {n} judges",
            ", ".join(
                f"{in_seconds(s)} (server {k}){' ' + v if v else ''}"
                for k, (s, v) in enumerate(zip(run.first_views, views, strict=True), start=1)
            ),
            f"{FIRST_VIEW}",
        ),
    ]


def print_table(rows: list[tuple[str, str, str]]) -> None:
    """The summary: one row per figure of the issue's table, ready to paste in a note."""
    print("\n| work | measured | goal |\n|---|---|---|")
    for work, value, goal in rows:
        print(f"| {work} | {value} | {goal} |")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # its servers, worker and database are gone by now
        raise SystemExit("interrupted: servers, worker and database cleaned up") from None
