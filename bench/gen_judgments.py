"""Generate realistic judgments through the app's own services (for the page benchmarks).

On a corpus already imported, the queue's first ``--sentences`` sentences × every MT system get
``--judges-per-candidate`` judgments each, by judges drawn (seeded) from a pool of
``--judges`` accounts, so each candidate has that many *distinct* judges. A judge works
as on the judge's page: sentence after sentence, the systems of a sentence in the judge's
own shuffled order (:func:`annotation.judging.order.system_order`), and per candidate

1. opens it (:func:`~annotation.judging.start.judgment_open`, which starts from the nearest
   reference of the pool or reuses the judge's judgment of an identical candidate, and
   :func:`~annotation.judging.start.judgment_seen`, the ``open`` event);
2. accepts about ``--accept-share`` (a third) of the edit operations the page shows: the
   alignment of the candidate against the new reference (:func:`metrics.align.align` on
   :func:`annotation.text.words`, as :func:`annotation.judging.page.judging_context`
   does), drawn again after every click because each click changes it; now and then
   (``UNDO_CHANCE``) a click is undone and another one made;
3. scores SSER from the edit rate that remains (10 × (1 − edits / length), ± one point);
4. accepts it (:func:`~annotation.judging.changes.judgment_finish`).

Then the HTER counts of the accepted judgments are filled, as the workers fill them while
the judges work (:func:`annotation.statistics.fill_hter_counts`; the clicks leave them), so
the pages measured afterwards find them as on a server with workers.

Every event carries a timestamp on the judge's own clock (a few seconds of reading before
the first click, one to six seconds between clicks, a break now and then), so active time
and the effort figures are realistic. One transaction per sentence, so SQLite does not
sync the disk after every click; the services' own transactions become savepoints.

Usage (against the database of ``DATABASE_URL``, the app's default otherwise)::

    python bench/gen_judgments.py --corpus NAME [--sentences 300]
        [--judges-per-candidate 3] [--judges 20] [--accept-share 0.33] [--seed 0]

Judges are the corpus's assigned judges (by username); when there are fewer than
``--judges``, accounts ``bench-judge-NN`` are created and assigned.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # first: bench/metrics.py must not hide the metrics package

if TYPE_CHECKING:
    from annotation.models import Corpus, Judgment, Sentence, Target, User

#: The judges' working day starts here (UTC); each judge starts a few minutes apart.
CAMPAIGN_START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
#: Chance that a click is undone (and another operation accepted instead).
UNDO_CHANCE = 0.05
#: About every this many judgments a judge takes a break (longer than the idle cap).
BREAK_EVERY = 80


@dataclass(frozen=True)
class JudgmentsMade:
    """What :func:`generate_judgments` made."""

    judgments: int
    events: int
    clicks: int
    sentences: int
    judges: int
    seconds: float


class JudgeClock:
    """One judge's time: each event a realistic number of seconds after the previous one."""

    def __init__(self, rng: random.Random, start: datetime) -> None:
        self.rng = rng
        self.now = start
        self.judged = 0

    def after(self, low: float, high: float) -> datetime:
        self.now += timedelta(seconds=self.rng.uniform(low, high))
        return self.now

    def next_candidate(self) -> datetime:
        """The next candidate's page: a moment after the last one, or after a break."""
        self.judged += 1
        if self.judged % BREAK_EVERY == 0:
            return self.after(600, 1800)
        return self.after(0.3, 1.5)


def judge_pool(corpus: Corpus, count: int, *, prefix: str = "bench-judge") -> list[User]:
    """``count`` judges assigned to ``corpus``: its assigned judges first (by username),
    then new accounts ``<prefix>-NN`` (role judge, no usable password), assigned to it."""
    from annotation.models import User

    judges = list(corpus.judges.filter(role=User.Role.JUDGE).order_by("username")[:count])
    k = 0
    while len(judges) < count:
        k += 1
        user, _ = User.objects.get_or_create(
            username=f"{prefix}-{k:02d}", defaults={"role": User.Role.JUDGE}
        )
        if user not in judges:
            corpus.judges.add(user)
            judges.append(user)
    return judges


def _edit_ops(judgment: Judgment) -> list[str]:
    """The edit operations the judge's page shows as buttons (``kind:hyp:ref``)."""
    from annotation.judging.edits import OpRef
    from annotation.text import words
    from metrics.align import Op, align

    alignment = align(words(judgment.target.text), words(judgment.new_ref))
    return [OpRef.of(e).token for e in alignment.ops if e.op is not Op.MATCH]


def judge_candidate(
    *, judge: User, target: Target, rng: random.Random, clock: JudgeClock, accept_share: float
) -> tuple[Judgment, int, int]:
    """One judge's whole judgment of one candidate, through the services (see the module
    doc); returns the judgment, the number of events and of edit-operation clicks."""
    from annotation.judging import changes
    from annotation.judging.start import judgment_open, judgment_seen
    from annotation.models import Judgment
    from annotation.text import awer_counts

    judgment = judgment_open(user=judge, target=target)
    judgment_seen(judgment=judgment, user=judge, at=clock.next_candidate())
    first_version, clicks = judgment.version, 0
    if judgment.state == Judgment.State.DONE:  # already judged (a rerun): leave it
        return judgment, 1, clicks
    wanted = sum(rng.random() < accept_share for _ in _edit_ops(judgment))
    reading = (4.0, 20.0)  # before the first click: reading source, candidate, reference
    while clicks < wanted:
        ops = _edit_ops(judgment)
        if not ops:
            break
        changes.judgment_accept_op(
            judgment=judgment,
            user=judge,
            version=judgment.version,
            op=rng.choice(ops),
            at=clock.after(*reading),
        )
        reading = (1.0, 6.0)
        clicks += 1
        if rng.random() < UNDO_CHANCE:
            changes.judgment_undo(
                judgment=judgment, user=judge, version=judgment.version, at=clock.after(1, 3)
            )
            wanted += 1  # the judge makes another click instead
    edits, length = awer_counts(target.text, judgment.new_ref)
    rate = edits / length if length else 1.0
    sser = min(10, max(0, round(10 * (1 - rate) + rng.gauss(0, 1))))
    changes.judgment_set_sser(
        judgment=judgment, user=judge, version=judgment.version, sser=sser, at=clock.after(2, 10)
    )
    changes.judgment_finish(
        judgment=judgment, user=judge, version=judgment.version, at=clock.after(0.5, 3)
    )
    # every saved change moves the version by one; the open event does not
    return judgment, 1 + judgment.version - first_version, clicks


def _systems_in_order(judge: User, sentence: Sentence) -> list[Target]:
    from annotation.judging.order import system_order

    targets = system_order(user=judge, sentence=sentence)
    for t in targets:  # the judgment services read target.sentence(.corpus): no query
        t.sentence = sentence
    return targets


def generate_judgments(
    *,
    corpus: Corpus,
    judges: Sequence[User],
    sentences: int = 300,
    per_candidate: int = 3,
    accept_share: float = 1 / 3,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> JudgmentsMade:
    """Judge the queue's first ``sentences`` sentences of ``corpus``, every system, by
    ``per_candidate`` distinct judges of ``judges`` each (see the module doc).

    Deterministic for a given seed and database. ``progress(done, total)`` is called
    after each sentence.
    """
    from django.db import transaction

    if not 1 <= per_candidate <= len(judges):
        raise ValueError(
            f"per_candidate={per_candidate}: needs 1 to {len(judges)} (the judges in the pool)"
        )
    if not 0.0 <= accept_share <= 1.0:
        raise ValueError(f"accept_share={accept_share}: a share must be in [0, 1]")
    rng = random.Random(seed)
    clocks = {
        j.pk: JudgeClock(random.Random(f"{seed}:{j.pk}"), CAMPAIGN_START + timedelta(minutes=7 * k))
        for k, j in enumerate(judges)
    }
    # the queue's first sentences (annotation.judging.order), as judges meet them
    chosen = list(corpus.sentences.select_related("corpus").order_by("queue_position")[:sentences])
    start = time.perf_counter()
    made = events = clicks = 0
    for n, sentence in enumerate(chosen, 1):
        with transaction.atomic():
            for judge in rng.sample(list(judges), per_candidate):
                for target in _systems_in_order(judge, sentence):
                    _, e, c = judge_candidate(
                        judge=judge,
                        target=target,
                        rng=rng,
                        clock=clocks[judge.pk],
                        accept_share=accept_share,
                    )
                    made, events, clicks = made + 1, events + e, clicks + c
        if progress is not None:
            progress(n, len(chosen))
    seconds = time.perf_counter() - start
    from annotation.statistics import fill_hter_counts

    fill_hter_counts()  # the workers' part, not timed: the clicks leave HTER's counts
    return JudgmentsMade(
        judgments=made,
        events=events,
        clicks=clicks,
        sentences=len(chosen),
        judges=len(judges),
        seconds=seconds,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", required=True, help="name of an imported corpus")
    parser.add_argument("--sentences", type=int, default=300, help="the first N sentences")
    parser.add_argument("--judges-per-candidate", type=int, default=3)
    parser.add_argument("--judges", type=int, default=20, help="size of the pool of judges")
    parser.add_argument("--accept-share", type=float, default=1 / 3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")
    import django

    django.setup()
    from annotation.models import Corpus

    try:
        corpus = Corpus.objects.get(name=args.corpus)
    except Corpus.DoesNotExist:
        parser.error(f"no corpus named {args.corpus!r}")

    def progress(done: int, total: int) -> None:
        if done % 25 == 0 or done == total:
            print(f"  {done}/{total} sentences", file=sys.stderr, flush=True)

    try:
        made = generate_judgments(
            corpus=corpus,
            judges=judge_pool(corpus, args.judges),
            sentences=args.sentences,
            per_candidate=args.judges_per_candidate,
            accept_share=args.accept_share,
            seed=args.seed,
            progress=progress,
        )
    except ValueError as exc:
        parser.error(str(exc))
    print(
        f"{corpus.name}: {made.judgments:,} judgments ({made.sentences} sentences, "
        f"{made.judges} judges, {made.clicks:,} accepted operations, {made.events:,} events) "
        f"in {made.seconds:.1f} s ({1000 * made.seconds / max(1, made.judgments):.1f} ms each)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
