"""The judge's side of a campaign that splits the work: a judge works through the batch
dealt to them (a ``Task``), in the queue's order, controls included, and nothing else of
the corpus; a batch given back shows its new holder only what is left; the header, the
home page and the finished page count the batch; a finished batch offers the next one;
and none of it costs more queries on a larger corpus."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from pathlib import Path

import pytest
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from annotation.controls.runs import Placement, control_slots, controls_per_run
from annotation.judging.changes import judgment_set_sser
from annotation.judging.order import previous_target_for
from annotation.judging.start import next_judgment_for
from annotation.models import Corpus, Judgment, Sentence, Target, Task, Translator, User
from annotation.queue_order import shuffled_systems
from annotation.tests.factories import HTMX, finish, sized_corpus

pytestmark = pytest.mark.django_db

SYSTEMS = 3


def split_corpus(tmp_path: Path, name: str, sentences: int, *judges: User, **settings) -> Corpus:
    """A corpus of ``sentences`` sentences × :data:`SYSTEMS` systems (two references)
    assigned to ``judges``, in a campaign with one annotator per item (``settings``: the
    corpus's own, controls say)."""
    corpus = sized_corpus(tmp_path, name, sentences, systems=SYSTEMS)
    corpus.judges.add(*judges)
    corpus.campaign.judges_per_item = 1
    corpus.campaign.save()
    if settings:
        Corpus.objects.filter(pk=corpus.pk).update(**settings)
        corpus.refresh_from_db()
    return corpus


def batch(corpus: Corpus, start: int, end: int, order: int, judge: User | None, **more) -> Task:
    """The batch of sentences ``start`` to ``end`` (file positions) of ``corpus``,
    ``order``-th in its dealing order, held by ``judge``."""
    size = (end - start) * SYSTEMS + len(more.get("extra", ()))
    return Task.objects.create(
        corpus=corpus,
        batch=order if more.pop("whole", True) else None,
        start=start,
        end=end,
        order=order,
        size=size,
        assignee=judge,
        **more,
    )


def expected_order(judge: User, corpus: Corpus, positions: range, extra: tuple = ()) -> list[int]:
    """The candidates of sentences ``positions`` and the ``extra`` targets, as the rule
    says a judge takes them: sentence by sentence in the queue's order, each sentence's
    candidates in the judge's shuffled order."""
    systems = Target.objects.filter(
        sentence__corpus=corpus, translator__role=Translator.Role.SYSTEM
    ).select_related("translator")
    mine = [t for t in systems if t.sentence.position in positions or t.pk in extra]
    queue_of = dict(Sentence.objects.filter(corpus=corpus).values_list("pk", "queue_position"))
    out = []
    for sentence_id in sorted({t.sentence_id for t in mine}, key=queue_of.__getitem__):
        here = [t for t in mine if t.sentence_id == sentence_id]
        out += [t.pk for t in shuffled_systems(here, user_id=judge.pk, sentence_id=sentence_id)]
    return out


def walk(judge: User, corpus: Corpus, *, most: int | None = None) -> list[Judgment]:
    """Every item the judge is given next, each judged and accepted, until none is left
    (or ``most`` are done)."""
    seen: list[Judgment] = []
    while most is None or len(seen) < most:
        judgment = next_judgment_for(user=judge, corpus=corpus)
        if judgment is None:
            break
        seen.append(judgment)
        finish(judgment, judge, "a new reference .", 6)
        assert len(seen) < 200, "the queue never ends"
    return seen


def reals(judgments: list[Judgment]) -> list[int]:
    return [j.target_id for j in judgments if not j.control]


def test_a_judge_with_a_batch_is_given_exactly_its_items_in_the_queues_order(
    tmp_path: Path, judge: User
) -> None:
    corpus = split_corpus(tmp_path, "split", 8, judge)
    task = batch(corpus, 2, 5, 0, judge)

    seen = walk(judge, corpus)

    assert reals(seen) == expected_order(judge, corpus, range(2, 5))
    assert {j.task_id for j in seen} == {task.pk}
    task.refresh_from_db()
    assert task.finished_at is not None  # its last item done: finished
    assert next_judgment_for(user=judge, corpus=corpus) is None


def test_a_batch_of_overlap_items_holds_part_of_a_sentence(tmp_path: Path, judge: User) -> None:
    """A batch carrying another batch's overlap items (``extra``) gives the judge those
    candidates, part of a sentence, in the judge's order of them, after its own."""
    corpus = split_corpus(tmp_path, "split", 6, judge)
    borrowed = tuple(
        Target.objects.filter(sentence__corpus=corpus, sentence__position=4)
        .filter(translator__role=Translator.Role.SYSTEM)
        .order_by("translator__position")
        .values_list("pk", flat=True)[:2]
    )
    batch(corpus, 0, 2, 0, judge, extra=list(borrowed), extra_batch=3)

    seen = walk(judge, corpus)

    assert reals(seen) == expected_order(judge, corpus, range(0, 2), borrowed)
    assert set(borrowed) <= set(reals(seen))


def test_candidate_k_of_n_counts_the_batchs_candidates_of_the_sentence(
    tmp_path: Path, judge: User, client: Client
) -> None:
    """Two overlap items of a sentence of three candidates: "candidate 1 of 2", "2 of 2"."""
    corpus = split_corpus(tmp_path, "split", 3, judge)
    borrowed = list(
        Target.objects.filter(sentence__corpus=corpus, sentence__position=1)
        .filter(translator__role=Translator.Role.SYSTEM)
        .values_list("pk", flat=True)[:2]
    )
    batch(corpus, 0, 0, 0, judge, extra=borrowed, extra_batch=0, whole=False)
    client.force_login(judge)

    places = []
    for judgment in walk(judge, corpus):
        html = client.get(reverse("annotation:judgment", args=[judgment.pk])).content.decode()
        places.append(CANDIDATE.search(html).groups())

    assert places == [("1", "2"), ("2", "2")]


def test_two_judges_of_one_corpus_each_get_their_own_batch(
    tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    ana, bob = user_factory("ana"), user_factory("bob")
    corpus = split_corpus(tmp_path, "split", 6, ana, bob)
    batch(corpus, 0, 3, 0, ana)
    batch(corpus, 3, 6, 1, bob)

    anas, bobs = reals(walk(ana, corpus)), reals(walk(bob, corpus))

    assert anas == expected_order(ana, corpus, range(0, 3))
    assert bobs == expected_order(bob, corpus, range(3, 6))
    assert not set(anas) & set(bobs)


def test_what_the_judge_did_outside_any_batch_is_skipped_and_counts_in_it(
    tmp_path: Path, judge: User
) -> None:
    """A candidate of the judge's batch they judged before the campaign split the work is
    not given again; it joins the batch, which is finished when the rest is done."""
    corpus = split_corpus(tmp_path, "split", 3, judge)
    task = batch(corpus, 0, 1, 0, judge)
    before = Target.objects.get(
        sentence__corpus=corpus, sentence__position=0, translator__name="system 2"
    )
    earlier = Judgment.objects.create(target=before, evaluator=judge, sser=3, state="done")

    seen = reals(walk(judge, corpus))

    assert seen == [t for t in expected_order(judge, corpus, range(0, 1)) if t != before.pk]
    earlier.refresh_from_db()
    task.refresh_from_db()
    assert earlier.task == task
    assert task.finished_at is not None


def test_a_judge_without_a_batch_is_given_nothing(tmp_path: Path, judge: User) -> None:
    corpus = split_corpus(tmp_path, "split", 4, judge)
    batch(corpus, 0, 4, 0, None)  # in the pool, not dealt

    assert next_judgment_for(user=judge, corpus=corpus) is None
    assert not Judgment.objects.exists()


def test_a_batch_given_back_shows_its_new_holder_only_what_is_left(
    tmp_path: Path, user_factory: Callable[..., User], client: Client
) -> None:
    ana, bob = user_factory("ana"), user_factory("bob")
    corpus = split_corpus(tmp_path, "split", 6, ana, bob)
    task = batch(corpus, 1, 4, 0, ana)
    anas = reals(walk(ana, corpus, most=4))
    Task.objects.filter(pk=task.pk).update(assignee=bob, returned=1)  # left untouched

    client.force_login(bob)
    first = client.get(reverse("annotation:judge_continue", args=[corpus.pk]), follow=True)
    bobs = reals(walk(bob, corpus))

    left = [t for t in expected_order(bob, corpus, range(1, 4)) if t not in anas]
    assert bobs == left
    assert len(anas) + len(bobs) == 3 * SYSTEMS
    assert re.search(r'id="progress">4/9<', first.content.decode())  # Ana's work counts
    assert Judgment.objects.filter(evaluator=bob).exclude(task=task).count() == 0
    assert next_judgment_for(user=ana, corpus=corpus) is None  # Ana holds none now


def test_controls_come_in_every_run_of_the_batch_as_anywhere(tmp_path: Path, judge: User) -> None:
    """With controls on, each run of the batch (the batch's candidates of a sentence)
    holds the controls of a run of its size, never two in a row nor last, made of that
    sentence, and carrying the batch; the batch's candidates come in the same order."""
    corpus = split_corpus(tmp_path, "split", 6, judge, controls_enabled=True, control_rate=3)
    per_run = controls_per_run(3, SYSTEMS)
    partial_run = tuple(
        Target.objects.filter(sentence__corpus=corpus, sentence__position=5)
        .filter(translator__role=Translator.Role.SYSTEM)
        .values_list("pk", flat=True)[:1]
    )
    task = batch(corpus, 0, 2, 0, judge, extra=list(partial_run), extra_batch=2)

    seen = walk(judge, corpus)

    assert reals(seen) == expected_order(judge, corpus, range(0, 2), partial_run)
    assert {j.task_id for j in seen} == {task.pk}
    runs: dict[int, list[Judgment]] = {}
    for j in seen:
        runs.setdefault(j.target.sentence_id, []).append(j)
    assert [sum(bool(j.control) for j in run) for run in runs.values()] == [per_run, per_run, 1]
    for run in runs.values():
        kinds = [bool(j.control) for j in run]
        assert not kinds[-1]
        assert not any(a and b for a, b in zip(kinds, kinds[1:], strict=False))


def test_previous_stays_among_the_judges_own_items_of_the_batch(
    tmp_path: Path, user_factory: Callable[..., User]
) -> None:
    ana, bob = user_factory("ana"), user_factory("bob")
    corpus = split_corpus(tmp_path, "split", 6, ana, bob)
    task = batch(corpus, 2, 4, 0, ana)
    anas = walk(ana, corpus, most=2)
    Task.objects.filter(pk=task.pk).update(assignee=bob, returned=1)
    bobs = walk(bob, corpus, most=3)
    order = expected_order(bob, corpus, range(2, 4))
    others = {j.target_id for j in anas}

    for judgment in bobs:
        previous = previous_target_for(judgment=Judgment.objects.get(pk=judgment.pk))
        earlier = [t for t in order[: order.index(judgment.target_id)] if t not in others]
        assert (previous.pk if previous else None) == (earlier[-1] if earlier else None)
    first = Judgment.objects.get(pk=anas[0].pk)
    assert previous_target_for(judgment=first) is None  # the batch's first: none before
    outside = Judgment.objects.create(
        target=Target.objects.get(
            sentence__corpus=corpus, sentence__position=5, translator__name="system 0"
        ),
        evaluator=ana,
    )
    assert previous_target_for(judgment=outside) is None  # made outside any batch


def test_a_judge_reaches_no_target_outside_their_batches_in_the_browser_views(
    tmp_path: Path, user_factory: Callable[..., User], client: Client
) -> None:
    """Previous from the batch's first item stays there; another judge's judgment is a
    404; a judge without a batch is shown the finished page and given nothing."""
    ana, bob = user_factory("ana"), user_factory("bob")
    corpus = split_corpus(tmp_path, "split", 6, ana, bob)
    batch(corpus, 3, 4, 0, ana)
    client.force_login(ana)
    first = client.get(reverse("annotation:judge_continue", args=[corpus.pk]))["Location"]
    pk = int(first.rstrip("/").rsplit("/", 1)[1])

    assert client.get(reverse("annotation:judgment_previous", args=[pk]))["Location"] == first
    assert Judgment.objects.filter(evaluator=ana).count() == 1
    client.force_login(bob)
    assert client.get(first).status_code == 404
    done = client.get(reverse("annotation:judge_continue", args=[corpus.pk]))
    assert done.status_code == 200
    assert 'id="all-done">No batch of this corpus is dealt to you yet' in done.content.decode()
    assert not Judgment.objects.filter(evaluator=bob).exists()


def test_saving_in_a_batch_touches_it_at_most_once_a_minute(tmp_path: Path, judge: User) -> None:
    corpus = split_corpus(tmp_path, "split", 2, judge)
    long_ago = timezone.now() - timedelta(hours=3)
    task = batch(corpus, 0, 1, 0, judge, touched_at=long_ago, assigned_at=long_ago)
    judgment = next_judgment_for(user=judge, corpus=corpus)

    judgment_set_sser(judgment=judgment, user=judge, version=judgment.version, sser=4)
    touched = Task.objects.get(pk=task.pk).touched_at
    judgment_set_sser(judgment=judgment, user=judge, version=judgment.version, sser=5)

    assert touched > long_ago
    assert Task.objects.get(pk=task.pk).touched_at == touched  # not again within the minute


# --- what the pages count -------------------------------------------------------------

PROGRESS = re.compile(r'id="progress">(\d+)/(\d+)<')
CANDIDATE = re.compile(r'id="candidate-number">(\d+)</span> of (\d+)')


def home_progress(client: Client, corpus: Corpus) -> str:
    html = client.get("/").content.decode()
    return re.search(rf'data-progress="{corpus.name}">([^<]*)<', html).group(1)


def test_the_header_home_and_finished_pages_count_the_batch_alike(
    tmp_path: Path, judge: User, client: Client
) -> None:
    """Item by item, controls included, the header's "done x/T", the home page's and at
    the end the finished page's count the batch's items, and say it is batch 1; the
    header's "candidate k of N" counts each run of the batch, one overlap item with its
    control included."""
    corpus = split_corpus(tmp_path, "split", 5, judge, controls_enabled=True, control_rate=3)
    borrowed = Target.objects.get(
        sentence__corpus=corpus, sentence__position=4, translator__name="system 1"
    )
    batch(corpus, 1, 3, 0, judge, extra=[borrowed.pk], extra_batch=4)
    run = SYSTEMS + controls_per_run(3, SYSTEMS)
    total = 2 * run + 2
    client.force_login(judge)
    assert home_progress(client, corpus) == f"0/{total}"
    assert 'data-batch="split">batch 1<' in client.get("/").content.decode()

    page = client.get(reverse("annotation:judge_continue", args=[corpus.pk]), follow=True)
    places = []
    for done in range(total):
        html = page.content.decode()
        assert PROGRESS.search(html).groups() == (str(done), str(total))
        places.append(tuple(map(int, CANDIDATE.search(html).groups())))
        assert re.search(r'id="batch-number">1<', html)
        assert home_progress(client, corpus) == f"{done}/{total}"
        url = page.redirect_chain[-1][0] if page.redirect_chain else page.request["PATH_INFO"]
        client.post(
            url + "sser/",
            {"sser": "5", "version": re.search(r'data-version="(\d+)"', html).group(1)},
        )
        version = re.search(r'data-version="(\d+)"', client.get(url).content.decode()).group(1)
        page = client.post(url + "accept/", {"version": version}, follow=True)

    runs = sorted(n for k, n in places if k == 1)
    assert runs == [2, run, run]
    assert places == [(k, n) for n in (n for k, n in places if k == 1) for k in range(1, n + 1)]
    finished = page.content.decode()
    assert f"You have done all {total} items of this batch ({total}/{total})" in finished
    assert 'id="batch-number">1<' in finished
    assert 'data-action="next-batch"' in finished
    assert home_progress(client, corpus) == f"{total}/{total}"
    assert 'data-action="next-batch" data-corpus="split"' in client.get("/").content.decode()


def test_next_batch_deals_the_next_one_and_opens_its_first_item(
    tmp_path: Path, judge: User, client: Client
) -> None:
    corpus = split_corpus(tmp_path, "split", 4, judge)
    batch(corpus, 0, 1, 0, judge)
    following = batch(corpus, 1, 2, 1, None)
    walk(judge, corpus)
    client.force_login(judge)

    response = client.post(reverse("annotation:next_batch", args=[corpus.pk]), follow=True)

    following.refresh_from_db()
    assert following.assignee == judge
    assert response.redirect_chain[0] == (
        reverse("annotation:judge_continue", args=[corpus.pk]),
        303,
    )
    html = response.content.decode()
    assert re.search(r'id="batch-number">2<', html)
    assert PROGRESS.search(html).groups() == ("0", str(SYSTEMS))
    judgment = Judgment.objects.get(pk=int(response.redirect_chain[-1][0].split("/")[-2]))
    assert judgment.task == following


def test_next_batch_says_plainly_when_no_work_is_left_and_whom_to_ask(
    tmp_path: Path, judge: User, lead: User, client: Client
) -> None:
    corpus = split_corpus(tmp_path, "split", 2, judge)
    corpus.leads.add(lead)
    batch(corpus, 0, 2, 0, judge)
    walk(judge, corpus)
    client.force_login(judge)

    response = client.post(reverse("annotation:next_batch", args=[corpus.pk]))

    assert response.status_code == 200
    html = response.content.decode()
    assert "No batch is left for you" in html
    assert 'data-lead="lead"' in html


def test_next_batch_is_a_post_with_its_csrf_token_for_a_judge_of_the_corpus(
    tmp_path: Path, judge: User, user_factory: Callable[..., User]
) -> None:
    corpus = split_corpus(tmp_path, "split", 2, judge)
    batch(corpus, 0, 2, 0, None)
    url = reverse("annotation:next_batch", args=[corpus.pk])
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(judge)
    stranger = Client()
    stranger.force_login(user_factory("stranger"))

    assert Client().post(url).status_code == 302  # to the login page
    assert strict.get(url).status_code == 405
    assert strict.post(url).status_code == 403
    assert stranger.post(url).status_code == 404
    assert not Task.objects.filter(assignee__isnull=False).exists()


def test_next_batch_by_htmx_navigates_to_the_batch_or_says_in_place_none_is_left(
    tmp_path: Path, judge: User, client: Client
) -> None:
    corpus = split_corpus(tmp_path, "split", 4, judge)
    batch(corpus, 0, 1, 0, None)
    client.force_login(judge)
    url = reverse("annotation:next_batch", args=[corpus.pk])

    dealt = client.post(url, **HTMX)
    walk(judge, corpus)
    none_left = client.post(url, **HTMX)

    assert dealt.status_code == 204
    assert dealt["HX-Redirect"] == reverse("annotation:judge_continue", args=[corpus.pk])
    html = none_left.content.decode()
    assert '<section id="judge"' in html
    assert 'id="no-batch-left"' in html
    assert "<html" not in html


def test_next_batch_of_a_corpus_that_does_not_split_the_work_goes_to_its_queue(
    seed: Corpus, judge_client: Client
) -> None:
    response = judge_client.post(reverse("annotation:next_batch", args=[seed.pk]))

    assert response.status_code == 303
    assert response["Location"] == reverse("annotation:judge_continue", args=[seed.pk])
    assert not Task.objects.exists()


# --- queries ------------------------------------------------------------------------------


#: The budgets of the judge's page and of accept & next where the work is not split
#: (``judging/test_queries.py``): a batch costs no more.
MAX_QUERIES_PAGE = 8
MAX_QUERIES_ACCEPT_AND_NEXT = 23


def counted(call: Callable[[], HttpResponse]) -> tuple[int, HttpResponse]:
    with CaptureQueriesContext(connection) as captured:
        response = call()
    assert response.status_code in (200, 302), response.status_code
    return len(captured), response


def path_counts(client: Client, corpus: Corpus) -> dict[str, int]:
    """Queries of the home page, the next-item path (the continue URL, which opens the
    judge's next item), the page (plain and htmx) and accept & next, in the judge's
    batch."""
    counts: dict[str, int] = {}
    counts["home"], _ = counted(partial(client.get, "/"))
    continued = reverse("annotation:judge_continue", args=[corpus.pk])
    counts["next item"], response = counted(partial(client.get, continued))
    url = response["Location"]
    counts["page"], response = counted(partial(client.get, url))
    counts["page (htmx)"], response = counted(partial(client.get, url, **HTMX))
    version = re.search(r'data-version="(\d+)"', response.content.decode()).group(1)
    response = client.post(url + "sser/", {"sser": "5", "version": version}, **HTMX)
    version = re.search(r'data-version="(\d+)"', response.content.decode()).group(1)
    counts["accept & next"], response = counted(
        partial(client.post, url + "accept/", {"version": version}, **HTMX)
    )
    return counts


def judge_with_real_items_first(
    corpus: Corpus, task: Task, user_factory: Callable[..., User], name: str
) -> User:
    """A new judge of ``corpus`` holding ``task`` whose first two items in it are real
    candidates (the controls' places are drawn per judge; a control made costs queries
    of its own), so two corpora's paths can be compared item for item."""
    first = Sentence.objects.filter(
        corpus=corpus, position__gte=task.start, position__lt=task.end
    ).order_by("queue_position")[0]
    for k in range(50):
        judge = user_factory(f"{name}{k}")
        slots = control_slots(Placement.of(corpus, judge.pk), first.pk, SYSTEMS)
        if not corpus.controls_enabled or not {0, 1} & set(slots):
            corpus.judges.add(judge)
            Task.objects.filter(pk=task.pk).update(assignee=judge)
            Task.objects.filter(corpus=corpus, assignee__isnull=True).update(assignee=judge)
            return judge
    raise AssertionError("no judge's first items are real")


@pytest.mark.parametrize("controls", [False, True], ids=["controls-off", "controls-on"])
def test_the_judges_path_costs_the_same_queries_on_a_corpus_twenty_times_larger(
    tmp_path: Path, user_factory: Callable[..., User], client: Client, controls: bool
) -> None:
    """The batch at the end of the corpus's queue, the judge's tenth: the home page, the
    next item, the page and accept & next cost the same on 5 sentences and on 100."""
    counts = []
    for name, sentences in (("small", 5), ("large", 100)):
        corpus = split_corpus(tmp_path, name, sentences, controls_enabled=controls)
        for k in range(9):
            done = timezone.now() - timedelta(hours=9 - k)
            Task.objects.create(corpus=corpus, order=k + 1, batch=k + 1, finished_at=done)
        far = sentences - 2
        task = batch(corpus, far, far + 2, 20, None)
        judge = judge_with_real_items_first(corpus, task, user_factory, name)
        client.force_login(judge)
        counts.append(path_counts(client, corpus))
        opened = Judgment.objects.filter(evaluator=judge)
        assert opened.count() == 2
        assert {j.task_id for j in opened} == {task.pk}

    assert counts[0] == counts[1]
    extra = 1 if controls else 0  # where the judge stands among the controls
    assert counts[0]["page (htmx)"] <= MAX_QUERIES_PAGE
    assert counts[0]["accept & next"] <= MAX_QUERIES_ACCEPT_AND_NEXT + extra
