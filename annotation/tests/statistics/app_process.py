"""An app process of its own, for the tests of the figures every process shares
(:mod:`annotation.tests.statistics.test_shared`): Django with the app's own settings, on
a database the test made, its figures' store the one ``CACHE_URL`` names (the database's
table without it). Run as ``python -m annotation.tests.statistics.app_process ARGS``
with ``DATABASE_URL`` naming that database:

* ``setup``: the demo corpus imported and scored (its scoring job computed here), with
  40 done judgments by two judges; a lead, and a judge of the corpus;
* ``serve [RETRY]``: an app server's process (``RETRY``: its
  ``EVALTOOL_CACHE_RETRY_SECONDS``), which reads commands from standard input, one a
  line, and answers each with a line of JSON:

  * ``view``: the lead's dashboard as a browser asks for it, through Django's whole
    request handling (the page, each of its panels, then ``table.json``): each
    answer's status, the table's figures (``table.json``), how many values each shelf
    computed meanwhile (``computed``), what the shared store did (``store``), and the
    queries that read the judgment table (``judgment_queries``), and how the
    meta-evaluation's sentence-level counts kept now were counted (``meta_points``);
  * ``judge``: the judge finishes one more candidate through the judge's services:
    the corpus's judgments stamp after it.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from typing import Any

#: The corpus, the lead and the judge of :func:`setup`.
CORPUS, LEAD, JUDGE = "demo", "lead", "judge"


def setup() -> None:
    from annotation.corpora.imports import corpus_import
    from annotation.jobs import run_queued_jobs
    from annotation.models import User
    from annotation.tests.factories import DEMO_XML, add_judgments

    corpus = corpus_import(source=DEMO_XML, name=CORPUS).corpus
    run_queued_jobs()  # its scoring, as a worker would
    ann, bob = (User.objects.create_user(name) for name in ("ann", "bob"))
    add_judgments(corpus, [ann, bob], 40)
    User.objects.create_user(LEAD, role=User.Role.LEAD)
    corpus.judges.add(User.objects.create_user(JUDGE, role=User.Role.JUDGE))


def _since(before: Counter[str], now: Counter[str]) -> dict[str, int]:
    return {k: now[k] - before[k] for k in now if now[k] != before[k]}


def view() -> dict[str, Any]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from annotation.dashboard.panels import PANELS
    from annotation.models import Corpus, User
    from annotation.statistics import CACHE

    corpus = Corpus.objects.get(name=CORPUS)
    client = Client()
    client.force_login(User.objects.get(username=LEAD))
    page = f"/dashboard/{corpus.pk}/"
    urls = [page, *(f"{page}panel/{name}/" for name in PANELS), f"{page}table.json"]
    computed, store = Counter(CACHE.computations), Counter(CACHE.shared.counts)
    with CaptureQueriesContext(connection) as queries:
        answers = [client.get(url, HTTP_HX_REQUEST="true") for url in urls]
    return {
        "status": [a.status_code for a in answers],
        "table": json.loads(answers[-1].content) if answers[-1].status_code == 200 else None,
        "computed": _since(computed, CACHE.computations),
        "store": _since(store, CACHE.shared.counts),
        "judgment_queries": sum(
            '"annotation_judgment"' in q["sql"] for q in queries.captured_queries
        ),
        "meta_points": _meta_points(),
    }


def _meta_points() -> dict[str, int] | None:
    """Per human figure, how many sentence-level points the meta-evaluation's τ-b counts
    kept now were brought up to date by (-1: counted afresh), or None when none are kept
    (:mod:`annotation.dashboard.meta_sentence`)."""
    from annotation.dashboard.panels.meta import SENTENCE_POINTS
    from annotation.dashboard.preprocessing import Preprocessing
    from annotation.models import Corpus
    from annotation.statistics import CACHE

    corpus = Corpus.objects.get(name=CORPUS)
    kept = CACHE.get(SENTENCE_POINTS.key(corpus, Preprocessing().signature, False))
    return None if kept is None else {h: points.moved for h, points in kept.items()}


def judge() -> dict[str, Any]:
    from annotation.judging.start import judgment_open
    from annotation.models import Corpus, Target, User
    from annotation.tests.factories import finish

    user = User.objects.get(username=JUDGE)
    target = (
        Target.objects.filter(sentence__corpus__name=CORPUS, translator__role="system")
        .exclude(judgments__evaluator=user)
        .select_related("translator")
        .order_by("pk")
        .first()
    )
    assert target is not None
    finish(judgment_open(user=user, target=target), user, target.text, 3)
    return {"judgments_stamp": Corpus.objects.get(name=CORPUS).judgments_stamp}


def serve(retry: float | None) -> None:
    from django.test.utils import override_settings

    if retry is not None:
        override_settings(EVALTOOL_CACHE_RETRY_SECONDS=retry).enable()
    commands = {"view": view, "judge": judge}
    for line in sys.stdin:
        print(json.dumps(commands[line.strip()]()), flush=True)


if __name__ == "__main__":
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    django.setup()
    command, *args = sys.argv[1:]
    if command == "setup":
        setup()
    else:
        serve(float(args[0]) if args else None)
