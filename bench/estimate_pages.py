"""The dashboard's estimates and the campaign's power plan at real size (issue 28, points 3
and 4): ``python bench/estimate_pages.py``. Prints, never asserts.

**The database** (SQLite in a temporary directory, as ``bench/dashboard.py`` builds it):
a corpus from ``bench/gen_corpus.py`` — 1,000 sentences × 3 references × 20 systems, in
20 documents — imported through the app's import, its scoring computed by a real
``manage.py worker --batch`` process; then 18,000 done judgments as ``bench/pages.py``
has them (3 judges per candidate × 20 systems × the first 300 sentences; scores and
counts drawn, seeded, made with ``bulk_create``: what they cost to make is not measured
here) and one imported metric of every segment (a COMET-like covariate).

**The measurements**, each in a fresh process with ``DEBUG`` off, best of ``--repeat``:

* the estimates computed alone, in their steps: the judgments read (one query, shared
  with every other panel), the sentence scores and documents, the covariates' sentence
  scores, the fits (120 estimates and the rank groups' paired tests);
* the fits again as after a judgment: one system's score of one sentence changed (the
  other systems' estimates and tests are remembered by their inputs);
* the Estimates panel (htmx) as the first view in a process (nothing remembered but the
  stored statistics), as a first view after a judgment (one judgment's SSER changed, a
  different one each time) and as a later one; the whole dashboard the same, and with
  ``?rank=estimate``; ``table.json``;
* the power plan computed alone, and the campaign page first and later.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import manage, production_env, run_json, run_measured  # noqa: E402

SENTENCES, REFERENCES, SYSTEMS = 1000, 3, 20
JUDGED_SENTENCES, JUDGES_PER_CANDIDATE, JUDGES = 300, 3, 20


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    import django

    django.setup()


def add_judgments_and_scores(seed: int) -> dict[str, float]:
    """In this (fresh) process: the judges, 18,000 done judgments and a COMET-like
    imported metric (see the module doc)."""
    _setup()
    import numpy as np

    from annotation.changes import judgments_changed
    from annotation.models import Corpus, Judgment, Target, User
    from annotation.statistics import external_metric_store

    rng = random.Random(seed)
    corpus = Corpus.objects.get(name="bench")
    judges = [
        User.objects.create_user(f"bench-judge-{k:02d}", password="x", role=User.Role.JUDGE)
        for k in range(JUDGES)
    ]
    corpus.judges.add(*judges)
    targets = Target.objects.filter(
        sentence__corpus=corpus,
        translator__role="system",
        sentence__position__lt=JUDGED_SENTENCES,
    ).values_list("pk", "text", "translator__position")
    made = []
    for pk, text, system in targets:
        quality = 0.3 + 0.6 * system / SYSTEMS  # systems apart, as in a real campaign
        length = max(1, len(text.split()))
        for judge in rng.sample(judges, JUDGES_PER_CANDIDATE):
            errors = sum(rng.random() > quality for _ in range(length))
            made.append(
                Judgment(
                    target_id=pk,
                    evaluator=judge,
                    state=Judgment.State.DONE,
                    sser=max(0, min(10, round(10 * (1 - errors / length)) + rng.randint(-1, 1))),
                    new_ref=text,
                    edits=errors,
                    ref_length=length,
                    ter_edits=max(0, errors - rng.randint(0, 1)),
                    ter_length=length,
                    ier_errors=min(3, errors // 3),
                    ier_length=3,
                    active_seconds=20.0 + rng.random() * 40,
                )
            )
    Judgment.objects.bulk_create(made, batch_size=2000)
    judgments_changed(corpus.pk)
    draw = np.random.default_rng(seed)
    systems = corpus.translators.filter(role="system").order_by("position")
    scores = {
        t.name: (0.5 + 0.3 * t.position / SYSTEMS + 0.1 * draw.normal(size=SENTENCES)).tolist()
        for t in systems
    }
    external_metric_store(corpus=corpus, name="COMET", higher_is_better=True, scores=scores)
    return {"judgments": float(len(made))}


def _best(take: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        take()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(repeat: int) -> dict[str, float]:
    """In this (fresh) process: the figures of the module doc."""
    _setup()
    from django.urls import get_resolver

    from annotation.models import Corpus

    get_resolver().url_patterns  # noqa: B018 (as a server loads them before any page)
    corpus = Corpus.objects.get(name="bench")
    return {**measure_estimates(corpus, repeat), **measure_pages(corpus, repeat)}


def measure_estimates(corpus: Any, repeat: int) -> dict[str, float]:
    """The estimates' steps, and the power plan, each timed on its own."""
    from annotation.campaigns.power import power_plan
    from annotation.dashboard.estimates import corpus_estimates, covariate_scores, judged_scores
    from annotation.dashboard.inputs import DashboardInputs
    from annotation.dashboard.parts import Parts, Pending
    from annotation.dashboard.sources import metrics, original_statistics
    from annotation.statistics import (
        external_metrics,
        forget,
        human_rows_by_system,
        judgment_rows,
        sentence_documents,
    )

    # the stored statistics: read by every view, not measured here
    dash = Parts(DashboardInputs(corpus))
    auto = dash.get(original_statistics)
    assert not isinstance(auto, Pending), auto.jobs
    out: dict[str, float] = {}
    rows = judgment_rows(corpus)
    out["judgments"] = float(len(rows))
    out["read_judgments"] = _best(lambda: judgment_rows(corpus), repeat)
    by_system = human_rows_by_system(rows)
    documents = sentence_documents(corpus)
    out["documents"] = float(len(set(documents or ())))
    out["sentence_scores"] = _best(
        lambda: judged_scores(by_system, auto.n_segments, sentence_documents(corpus)), repeat
    )
    judged = judged_scores(by_system, auto.n_segments, documents)
    imported = external_metrics(corpus)
    out["covariates"] = _best(lambda: covariate_scores(auto, dash.get(metrics), imported), repeat)
    covariates = covariate_scores(auto, dash.get(metrics), imported)

    def fits() -> object:
        return corpus_estimates(judged, auto.systems, auto.n_segments, covariates)

    out["fits"] = _best(lambda: (forget(), fits()), repeat)
    one, changes = auto.systems[0], itertools.count(100)

    def fits_after_one_judgment() -> object:
        """As after a judgment of system ``one``: its score of one sentence changed (to a
        value never seen before: nothing remembered applies to it)."""
        value = float(next(changes))
        for by_system in judged.scores.values():
            if one in by_system:
                y = by_system[one].copy()
                y[0] = value
                by_system[one] = y
        return fits()

    fits()
    out["fits_one_changed"] = _best(fits_after_one_judgment, repeat)
    judged = judged_scores(by_system, auto.n_segments, documents)  # as read, again
    estimates = fits()
    out["estimates"] = float(sum(len(m.systems) for m in estimates.metrics))
    out["power_plan"] = _best(lambda: power_plan(rows, auto.systems, auto.n_segments), repeat)
    return out


def measure_pages(corpus: Any, repeat: int) -> dict[str, float]:
    """Each page's time: the process's first view, after a judgment, and later."""
    from django.test import Client

    from annotation.changes import judgments_changed
    from annotation.models import Judgment, User
    from annotation.statistics import forget

    out: dict[str, float] = {}
    client = Client()
    client.force_login(User.objects.get(username="bench-lead"))
    base = f"/dashboard/{corpus.pk}/"

    def get(url: str, **headers: str) -> None:
        response = client.get(url, **headers)
        if response.status_code != 200:
            raise SystemExit(f"{url}: HTTP {response.status_code}")

    # one judgment a view, never the same twice: no state of the scores comes back
    judgments = iter(
        Judgment.objects.filter(target__sentence__corpus=corpus, state="done").order_by("pk")
    )

    def cold(url: str, **headers: str) -> Callable[[], None]:
        def view() -> None:
            # as after a judgment: one judgment's SSER changes, and with it the stamp
            judgment = next(judgments)
            sser = 5 if judgment.sser is None else (judgment.sser + 1) % 11
            Judgment.objects.filter(pk=judgment.pk).update(sser=sser)
            judgments_changed(corpus.pk)
            get(url, **headers)

        return view

    htmx = {"HTTP_HX_REQUEST": "true"}
    pages = {
        "panel": (f"{base}panel/estimates/", htmx),
        "page": (base, {}),
        "page_ranked": (f"{base}?rank=estimate", {}),
        "table_json": (f"{base}table.json", {}),
        "campaign": (f"/campaigns/{corpus.pk}/", {}),
    }
    for name, (url, headers) in pages.items():
        forget()
        get(url, **headers)  # the process's first view: the stored statistics decoded once
        out[f"{name}_first_in_process"] = _best(
            lambda url=url, headers=headers: (forget(), get(url, **headers)), repeat
        )
        get(url, **headers)
        out[f"{name}_after_judgment"] = _best(cold(url, **headers), repeat)
        out[f"{name}_later"] = _best(lambda url=url, headers=headers: get(url, **headers), repeat)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--judge", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args()
    if args.judge:
        print(json.dumps(add_judgments_and_scores(args.seed)))
        return
    if args.measure:
        print(json.dumps(measure(args.repeat)))
        return

    from bench.gen_corpus import generate_corpus

    with tempfile.TemporaryDirectory(prefix="evaltool-bench-estimates-") as tmp:
        workdir = Path(tmp)
        path = workdir / "corpus.xml"
        with path.open("wb") as out:
            generate_corpus(
                out, sentences=SENTENCES, references=REFERENCES, systems=SYSTEMS, seed=args.seed
            )
        env = production_env(workdir)
        # the import as bench/dashboard.py makes it: migrate, the corpus "bench", its lead
        run_json(str(ROOT / "bench" / "dashboard.py"), "--import-one", str(path), env=env)
        scoring = run_measured(manage("worker", "--batch", "--interval", "0.1"), env)
        made = run_json(__file__, "--judge", "--seed", str(args.seed), env=env)
        f = run_json(__file__, "--measure", "--repeat", str(args.repeat), env=env)
    print(
        f"{SENTENCES:,} sentences × {SYSTEMS} systems × {REFERENCES} references, "
        f"{f['documents']:.0f} documents, {made['judgments']:,.0f} judgments "
        f"({JUDGES_PER_CANDIDATE} per candidate of the first {JUDGED_SENTENCES} sentences), "
        f"one imported metric; the import's scoring in a worker: {scoring.seconds:.1f} s; "
        f"{f['estimates']:.0f} estimates; best of {args.repeat}, seconds"
    )
    lines = [
        ("read the judgments (shared with every panel)", f["read_judgments"]),
        ("estimates: sentence scores and documents", f["sentence_scores"]),
        ("estimates: covariates' sentence scores", f["covariates"]),
        ("estimates: fits and rank groups' paired tests", f["fits"]),
        ("… after a judgment (one system's scores changed)", f["fits_one_changed"]),
        ("power plan from the judgments read", f["power_plan"]),
        ("Estimates panel, first view in a process", f["panel_first_in_process"]),
        ("Estimates panel, first view after a judgment", f["panel_after_judgment"]),
        ("Estimates panel, later view", f["panel_later"]),
        ("whole dashboard, first view in a process", f["page_first_in_process"]),
        ("whole dashboard, first view after a judgment", f["page_after_judgment"]),
        ("whole dashboard, later view", f["page_later"]),
        ("… ?rank=estimate, after a judgment", f["page_ranked_after_judgment"]),
        ("… ?rank=estimate, later view", f["page_ranked_later"]),
        ("table.json, after a judgment", f["table_json_after_judgment"]),
        ("table.json, later", f["table_json_later"]),
        ("campaign page, after a judgment", f["campaign_after_judgment"]),
        ("campaign page, later view", f["campaign_later"]),
    ]
    width = max(len(label) for label, _ in lines)
    for label, seconds in lines:
        print(f"  {label:<{width}}  {seconds:6.3f}")


if __name__ == "__main__":
    main()
