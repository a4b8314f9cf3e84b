"""Speed of the judge's page: ``python bench/annotate.py [--check]``.

Targets (issue 4): server time per click ≤ 25 ms p95 and page render ≤ 60 ms p95, with
≤ 10 SQL queries per click, on the demo corpus and on an 80-token sentence with 20
references in its pool. Measured in-process through Django's test client (full request
cycle: session, auth, view, services, template) against a fresh SQLite database in a temp
directory (or ``DATABASE_URL`` if set — it must then be a disposable database), with
``DEBUG`` off as in production. Wall-clock figures suffer when other processes share
the CPUs, so the CPU time of this process per request is printed beside them, and the
load average before the run. ``--check`` exits 1 when a figure is past its target
(:class:`bench.common.Verdicts`; by hand, not in CI).

A *click* is an htmx POST of the judge's page, as the browser sends it: accept an edit
operation (the first one shown), or, once the candidate has none left, take the first
reference of the pool again (another click); every 5th click scores SSER and every 7th is
an undo. Before the clicks, the judge accepts all candidates of the first sentences, so
the live figures cover several sentences. *Render* is the full page (GET).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import Budget, Verdicts, add_check_option, production_env  # noqa: E402

#: Every figure of the run against its budget (``--check``).
VERDICTS = Verdicts()
CLICK_P95 = Budget(25, "ms")
RENDER_P95 = Budget(60, "ms")
CLICK_QUERIES = Budget(10, "queries")

OP_BUTTON = re.compile(r'name="op" value="([a-z]+:\d+:\d+[^"]*)"')
VERSION = re.compile(r'data-version="(\d+)"')


def long_corpus(path: Path, *, sentences: int = 6, tokens: int = 80, references: int = 20) -> None:
    """Sentences of ``tokens`` words, ``references`` references each, three systems."""
    from annotation.corpora.evaltrans import (
        FIRST_REFERENCE,
        CorpusHeader,
        EvalElement,
        SentenceElement,
        write_evaltrans,
    )

    rng = random.Random(4)
    vocabulary = [f"w{k}" for k in range(400)]

    def edited(base: list[str], rate: float) -> str:
        out = []
        for word in base:
            r = rng.random()
            if r < rate / 3:
                continue
            out.append(rng.choice(vocabulary) if r < 2 * rate / 3 else word)
            if r > 1 - rate / 3:
                out.append(rng.choice(vocabulary))
        return " ".join(out)

    def elements():
        for k in range(sentences):
            base = [rng.choice(vocabulary) for _ in range(tokens)]
            evals = [EvalElement(translator=FIRST_REFERENCE, target=" ".join(base), line=0)]
            evals += [
                EvalElement(translator=f"ref{r} reference", target=edited(base, 0.15), line=0)
                for r in range(1, references)
            ]
            evals += [
                EvalElement(translator=f"system {s}", target=edited(base, 0.25), line=0)
                for s in range(3)
            ]
            yield SentenceElement(source=" ".join(base), evals=tuple(evals), line=0, position=k)

    with path.open("wb") as out:
        write_evaltrans(out, CorpusHeader(name="long"), elements())


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def bench_corpus(name: str, path: Path, *, warm_sentences: int, clicks: int) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from annotation.corpora.imports import corpus_import
    from annotation.judging import changes, start
    from annotation.judging.page import judging_context
    from annotation.models import Judgment, User
    from annotation.text import words as words_of

    corpus = corpus_import(source=path, name=f"bench {name}").corpus
    judge = User.objects.create_user(f"bench-{name}", role=User.Role.JUDGE)
    corpus.judges.add(judge)
    # Finished work, so the figures cover several sentences.
    for _ in range(warm_sentences * corpus.translators.filter(role="system").count()):
        j = start.next_judgment_for(user=judge, corpus=corpus)
        changes.judgment_set_sser(judgment=j, user=judge, version=j.version, sser=7)
        changes.judgment_finish(judgment=j, user=judge, version=j.version)
    judgment = start.next_judgment_for(user=judge, corpus=corpus)
    assert judgment is not None
    first_ref = judging_context(judgment).pool[0].text

    client = Client()
    client.force_login(judge)
    page_url = f"/judgments/{judgment.pk}/"
    htmx = {"HTTP_HX_REQUEST": "true"}

    renders: list[float] = []
    render_cpu: list[float] = []
    for _ in range(max(30, clicks // 4)):
        start, cpu = time.perf_counter(), time.process_time()
        response = client.get(page_url)
        renders.append((time.perf_counter() - start) * 1000)
        render_cpu.append((time.process_time() - cpu) * 1000)
        assert response.status_code == 200
    html = response.content.decode()

    times: list[float] = []
    click_cpu: list[float] = []
    queries: list[int] = []
    for k in range(clicks):
        version = VERSION.search(html).group(1)
        ops = OP_BUTTON.findall(html)
        if k % 7 == 6:
            url, data = f"{page_url}undo/", {"version": version}
        elif k % 5 == 4:
            url, data = f"{page_url}sser/", {"version": version, "sser": str(k % 11)}
        elif ops:
            url, data = f"{page_url}op/", {"version": version, "op": ops[0]}
        else:
            url, data = f"{page_url}use-ref/", {"version": version, "text": first_ref}
        with CaptureQueriesContext(connection) as captured:
            start, cpu = time.perf_counter(), time.process_time()
            response = client.post(url, data, **htmx)
            times.append((time.perf_counter() - start) * 1000)
            click_cpu.append((time.process_time() - cpu) * 1000)
        queries.append(len(captured.captured_queries))
        assert response.status_code == 200, (url, response.status_code)
        html = response.content.decode()

    stored = Judgment.objects.get(pk=judgment.pk)
    words = len(words_of(stored.target.text))
    pool = len(judging_context(stored).pool)
    figures = [*percentiles(times), *percentiles(renders)]
    cpu = [*percentiles(click_cpu), *percentiles(render_cpu)]
    over = [
        VERDICTS.judge(f"{name}: click p95", figures[1], CLICK_P95),
        VERDICTS.judge(f"{name}: page render p95", figures[3], RENDER_P95),
        VERDICTS.judge(f"{name}: queries per click", max(queries), CLICK_QUERIES),
    ]
    print(
        f"{name:>20}  {words:>5}  {pool:>4}  {max(queries):>7}  "
        + "  ".join(f"{w:>5.1f} ({c:>4.1f})" for w, c in zip(figures, cpu, strict=True))
        + ("  OVER" if any(over) else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=300)
    add_check_option(parser)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="evaltool-bench-annotate-") as tmp:
        os.environ.update(production_env(Path(tmp)))
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        long_path = Path(tmp) / "long.xml"
        long_corpus(long_path)

        print("server time per request, ms wall (CPU), Django test client in-process;")
        print("target: click p95 ≤ 25 ms with ≤ 10 queries, page render p95 ≤ 60 ms")
        print(f"load average before the run: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
        print(
            f"{'corpus':>20}  {'words':>5}  {'pool':>4}  {'queries':>7}  "
            + "  ".join(f"{h:>12}" for h in ("click p50", "click p95", "page p50", "page p95"))
        )
        bench_corpus(
            "TED demo 40 × 5",
            ROOT / "fixtures" / "ted-zhen-demo.evaltrans.xml",
            warm_sentences=10,
            clicks=args.clicks,
        )
        bench_corpus("80 words, 20 refs", long_path, warm_sentences=5, clicks=args.clicks)
    VERDICTS.finish(args.check)


if __name__ == "__main__":
    main()
