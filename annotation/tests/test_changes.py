"""Every write that changes what a figure reads moves the stamps it touches, and no other
(``annotation/changes.py``): so nothing remembered under the stamps before the write is
shown after it. One row per write path (the judge's and the lead's services, the
commands, the admin's saves, deletions and actions), each run on a small judged corpus:
the stamps it must move and, where one is cheap to read, a figure read through the
cache before and after, which must differ. A write that forgets its stamp fails its row.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import lxml.html
import numpy as np
import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from annotation.campaigns.judges import (
    corpus_discard_judgments,
    corpus_leave_out_judge,
    corpus_set_aside_judge,
)
from annotation.changes import FIELDS, Stamp
from annotation.controls.runs import corpus_queue
from annotation.corpora.systems import corpus_add_system
from annotation.dashboard import figures
from annotation.judging.changes import judgment_move_word, judgment_set_sser
from annotation.judging.stack import judgment_for
from annotation.judging.start import judgment_open
from annotation.models import Corpus, Judgment, Protocol, Sentence, Target, Translator, User
from annotation.statistics import (
    counted_judgments,
    external_metric_delete,
    external_metric_import,
    external_metric_store,
    external_metrics,
    fill_hter_counts,
    judgment_rows,
)
from annotation.tests.boards import view_of
from annotation.tests.documents import add_speech
from annotation.tests.factories import HAND_SYSTEMS, done_judgment, finish, target_of
from annotation.tests.imported import import_scores, tsv
from annotation.tests.judged_corpora import hand_corpus, judged_hand

__all__ = ["hand_corpus", "judged_hand"]  # the fixtures, shared with the statistics' tests

pytestmark = pytest.mark.django_db

JUDGMENTS, TEXTS, EXTERNAL, NONE = Stamp.JUDGMENTS, Stamp.TEXTS, Stamp.EXTERNAL, Stamp.NONE


@dataclass
class World:
    """The hand corpus judged by ann (every candidate) and bob (two), with a system
    imported as one document ("speech", "perfect"'s words), and an admin's client."""

    corpus: Corpus
    ann: User
    bob: User
    admin: Client
    tmp_path: Path

    def fresh(self) -> Corpus:
        """The corpus as a view loads it, with its stamps as stored now."""
        return Corpus.all_objects.get(pk=self.corpus.pk)

    def done(self, judge: User, system: str = "one-off", sentence: int = 0) -> Judgment:
        return Judgment.objects.get(
            evaluator=judge, target=target_of(self.corpus, system, sentence)
        )


@pytest.fixture
def world(
    judged_hand: Corpus, user_factory: Callable[..., User], client: Client, tmp_path: Path
) -> World:
    ann = User.objects.get(username="ann")
    bob = user_factory("bob")
    judged_hand.judges.add(ann, bob)
    for k in (0, 1):
        done_judgment(judged_hand, bob, "bad", k, sser=5, edits=2, length=4, new_ref="w x")
    add_speech(judged_hand, "perfect")
    client.force_login(user_factory("root", is_staff=True, is_superuser=True))
    return World(Corpus.objects.get(pk=judged_hand.pk), ann, bob, client, tmp_path)


# ---- figures, read through the cache


def human_figures(corpus: Corpus) -> object:
    """The human figures per system (remembered under the judgments stamp)."""
    return view_of(corpus).get(figures.human)


def left_out(corpus: Corpus) -> object:
    """The judges named as left out of the figures (remembered likewise)."""
    return view_of(corpus).get(figures.left_out)


def items_to_judge(corpus: Corpus) -> object:
    """How many items every judge's queue holds (remembered under the texts stamp)."""
    return corpus_queue(corpus).total


def imported(corpus: Corpus) -> object:
    """Each imported metric's scores, a missing score as None (remembered under the
    imported scores' stamp)."""
    return {
        m.name: {s: [None if np.isnan(v) else v for v in values] for s, values in m.scores.items()}
        for m in external_metrics(corpus)
    }


# ---- the writes


#: Two metrics' scores of every system of the world's corpus.
COMET = {s: [0.5, 0.25, 0.75, 1.0] for s in (*HAND_SYSTEMS, "speech")}
SCORES = {s: [1.0, 2.0, 3.0, 4.0] for s in COMET}


def judge_changes_a_done_judgment(w: World) -> None:
    done = judgment_for(pk=w.done(w.ann).pk, user=w.ann)
    judgment_set_sser(judgment=done, user=w.ann, version=done.version, sser=2)


def judge_finishes_a_judgment(w: World) -> None:
    opened = judgment_open(user=w.bob, target=target_of(w.corpus, "perfect", 2))
    finish(judgment_for(pk=opened.pk, user=w.bob), w.bob, "i j k l", 9)


def judge_scores_without_finishing(w: World) -> None:
    opened = judgment_for(
        pk=judgment_open(user=w.bob, target=target_of(w.corpus, "perfect", 3)).pk, user=w.bob
    )
    judgment_set_sser(judgment=opened, user=w.bob, version=opened.version, sser=9)


def judge_moves_a_word(w: World) -> None:
    opened = judgment_open(user=w.ann, target=target_of(w.corpus, "speech", 1))
    judgment = judgment_for(pk=opened.pk, user=w.ann)
    judgment_move_word(
        judgment=judgment, user=w.ann, version=judgment.version, edge="end", move="give"
    )


def leave_bob_out(w: World) -> None:
    corpus_leave_out_judge(corpus=w.corpus, judge=w.bob, left_out=True)


def count_bob_again(w: World) -> None:
    corpus_leave_out_judge(corpus=w.corpus, judge=w.bob, left_out=False)


def set_bob_aside(w: World) -> None:
    corpus_set_aside_judge(corpus=w.corpus, judge=w.bob)


def discard_bobs_work(w: World) -> None:
    corpus_discard_judgments(corpus=w.corpus, judge=w.bob, typed="bob")


def add_a_system(w: World) -> None:
    lines = ["a b", "c d", "e f", "g h"]
    corpus_add_system(
        corpus=w.corpus, name="added", lines=lines, filename="added.txt", unsegmented=False
    )


def import_comet(w: World) -> None:
    import_scores(w.corpus, "COMET", COMET)


def replace_comet(w: World) -> None:
    import_scores(w.corpus, "COMET", SCORES, replace=True)


def store_metricx(w: World) -> None:
    external_metric_store(
        corpus=w.corpus, name="MetricX", higher_is_better=False, scores=SCORES, source="run"
    )


def delete_comet(w: World) -> None:
    external_metric_delete(corpus=w.corpus, name="COMET")


def fill_hter(w: World) -> None:
    assert fill_hter_counts() > 0


def command(*args: str) -> Callable[[World], None]:
    def run(w: World) -> None:
        call_command(*args, stdout=io.StringIO())

    return run


def import_text_command(w: World) -> None:
    (w.tmp_path / "added.txt").write_text("a b\nc d\ne f\ng h\n", encoding="utf-8")
    command("import_text", "--name", "hand", "--hyp", f"added={w.tmp_path / 'added.txt'}")(w)


#: Human system-level scores of every system of the world's corpus, published alone.
PUBLISHED = "".join(f"{s}\t{-k - 0.5!r}\n" for k, s in enumerate(COMET))


def published(corpus: Corpus) -> object:
    """Each imported metric's system figures (remembered under the imported scores' stamp)."""
    return {m.name: {s: f.score for s, f in m.figures.items()} for m in external_metrics(corpus)}


def import_published(w: World) -> None:
    external_metric_import(
        corpus=w.corpus,
        data=None,
        layout="mtme",
        name="MQM-WMT",
        higher_is_better=True,
        system_scores=PUBLISHED.encode(),
    )


def import_published_command(w: World) -> None:
    (w.tmp_path / "mqm.sys.score").write_text(PUBLISHED, encoding="utf-8")
    sys = str(w.tmp_path / "mqm.sys.score")
    name = ("--name", "MQM-WMT", "--higher-is-better")
    command("import_scores", "hand", *name, "--format", "mtme", "--sys", sys)(w)


def import_scores_command(w: World) -> None:
    (w.tmp_path / "comet.tsv").write_bytes(tsv(COMET))
    scores = str(w.tmp_path / "comet.tsv")
    command("import_scores", "hand", scores, "--name", "COMET", "--higher-is-better")(w)
    assert w.fresh().external_metrics.filter(name="COMET").exists()


def import_appraise_command(w: World) -> None:
    Corpus.objects.filter(pk=w.corpus.pk).update(protocol=Protocol.ESA)  # no figure reads it
    row = "carol,bad,2,TGT,eng,deu,40,,False,[],1718899200,1718899230\n"
    (w.tmp_path / "esa.csv").write_text(row, encoding="utf-8")
    command("import_appraise", str(w.tmp_path / "esa.csv"), "--corpus", "hand")(w)
    assert (
        w.fresh()
        .translators.get(name="bad")
        .targets.get(sentence__position=2)
        .judgments.filter(evaluator__username="carol", esa_score=40)
        .exists()
    )


# ---- the admin, as a browser posts its forms


def admin_url(model: type[Any], pk: int | None = None, action: str = "") -> str:
    base = f"/admin/annotation/{model._meta.model_name}/"
    return base if pk is None else f"{base}{pk}/{action}/"


def post_as_shown(
    w: World, page: str, form_id: str, changes: dict[str, Any], *, status: int = 302
) -> None:
    """The form ``form_id`` of the page at ``page`` posted as the page shows it, with
    ``changes`` (field → value, or list of values)."""
    form = lxml.html.fromstring(w.admin.get(page).content).get_element_by_id(form_id)
    data: dict[str, Any] = {}
    for name, value in form.form_values():
        data.setdefault(name, []).append(value)
    data.update(changes)
    response = w.admin.post(form.get("action") or page, data)
    assert response.status_code == status, response.content.decode()[:3000]


def delete_in_admin(model: type[Any], pick: Callable[[World], Any]) -> Callable[[World], None]:
    def delete(w: World) -> None:
        response = w.admin.post(admin_url(model, pick(w).pk, "delete"), {"post": "yes"})
        assert response.status_code == 302

    return delete


def delete_selected(model: type[Any], pick: Callable[[World], Any]) -> Callable[[World], None]:
    def delete(w: World) -> None:
        chosen = [pick(w).pk]
        data = {"action": "delete_selected", "_selected_action": chosen, "post": "yes"}
        response = w.admin.post(admin_url(model), data)
        assert response.status_code == 302
        assert not model._default_manager.filter(pk__in=chosen).exists()

    return delete


def change_in_admin(
    model: type[Any], pick: Callable[[World], Any], **changes: Callable[[World], Any]
) -> Callable[[World], None]:
    def change(w: World) -> None:
        url = admin_url(model, pick(w).pk, "change")
        post_as_shown(
            w, url, f"{model._meta.model_name}_form", {k: v(w) for k, v in changes.items()}
        )

    return change


def change_on_campaign_page(**changes: Callable[[World], Any]) -> Callable[[World], None]:
    """The corpus's settings form on its campaign page, as a lead's browser posts it."""

    def change(w: World) -> None:
        page = reverse("campaigns:corpus", args=[w.corpus.pk])
        post_as_shown(w, page, "settings-form", {k: v(w) for k, v in changes.items()}, status=303)

    return change


def the_corpus(w: World) -> Corpus:
    return w.corpus


def a_system(w: World) -> Translator:
    return Translator.objects.get(corpus=w.corpus, name="bad")


def a_reference(w: World) -> Target:
    return Target.objects.get(
        sentence__corpus=w.corpus,
        sentence__position=0,
        translator__role=Translator.Role.FIRST_REFERENCE,
    )


def a_sentence(w: World) -> Sentence:
    return Sentence.objects.get(corpus=w.corpus, position=3)


def a_candidate(w: World) -> Target:
    return target_of(w.corpus, "one-off", 0)


#: An MQM taxonomy other than the default (WMT's).
OTHER_TAXONOMY = '{"weights": {"minor": 2, "major": 10}, "categories": [{"name": "Other"}]}'


@dataclass(frozen=True)
class Write:
    """One write path: what is done, what is done before (not measured), the stamps it
    moves, and a figure it changes (None: none cheap to read). ``kept_before``: whether
    the judgments the figures count can be read before it (a read fills HTER's counts
    that a worker has not: a worker then finds none to fill)."""

    does: Callable[[World], None]
    moves: Stamp
    figure: Callable[[Corpus], object] | None = None
    given: Callable[[World], None] | None = None
    kept_before: bool = True


WRITES = {
    # the judge's page (annotation.judging): every click goes through one stack
    "a judge changes a done judgment": Write(
        judge_changes_a_done_judgment, JUDGMENTS, human_figures
    ),
    "a judge finishes a judgment": Write(judge_finishes_a_judgment, JUDGMENTS, human_figures),
    "a judge scores a judgment not done": Write(judge_scores_without_finishing, NONE),
    "a judge moves a word across a boundary": Write(judge_moves_a_word, TEXTS | JUDGMENTS),
    "a word moves in a corpus with imported scores": Write(
        judge_moves_a_word, TEXTS | JUDGMENTS | EXTERNAL, imported, given=import_comet
    ),
    # the lead's pages (annotation.campaigns.judges)
    "a lead leaves a judge out": Write(leave_bob_out, JUDGMENTS, human_figures),
    "a lead counts a judge again": Write(count_bob_again, JUDGMENTS, human_figures, leave_bob_out),
    "a lead sets a judge's work aside": Write(set_bob_aside, JUDGMENTS, human_figures),
    "a lead discards a judge's work": Write(discard_bobs_work, JUDGMENTS, left_out, set_bob_aside),
    # systems (annotation.corpora.systems) and imported scores (statistics.external)
    "a lead adds a system": Write(add_a_system, TEXTS | JUDGMENTS, items_to_judge),
    "a lead imports a metric's scores": Write(import_comet, EXTERNAL, imported),
    "a lead replaces a metric's scores": Write(replace_comet, EXTERNAL, imported, import_comet),
    "a program stores a metric's scores": Write(store_metricx, EXTERNAL, imported),
    "a lead deletes an imported metric": Write(delete_comet, EXTERNAL, imported, import_comet),
    "a worker fills HTER's counts": Write(fill_hter, NONE, kept_before=False),
    # the corpus's settings on its campaign page (annotation.campaigns.forms)
    "a lead changes a corpus's settings": Write(
        change_on_campaign_page(share_new_refs=lambda w: "on"), NONE
    ),
    "a lead changes a corpus's MQM taxonomy": Write(
        change_on_campaign_page(mqm_taxonomy=lambda w: OTHER_TAXONOMY), JUDGMENTS
    ),
    # the commands
    "manage.py leave_out": Write(command("leave_out", "hand", "bob"), JUDGMENTS, human_figures),
    "manage.py leave_out --count-again": Write(
        command("leave_out", "hand", "bob", "--count-again"),
        JUDGMENTS,
        human_figures,
        leave_bob_out,
    ),
    "manage.py import_text (a system added)": Write(
        import_text_command, TEXTS | JUDGMENTS, items_to_judge
    ),
    "manage.py import_scores": Write(import_scores_command, EXTERNAL, imported),
    "manage.py import_scores, a .sys.score alone": Write(
        import_published_command, EXTERNAL, published
    ),
    "manage.py import_appraise (judgments added)": Write(import_appraise_command, JUDGMENTS),
    "manage.py delete_scores": Write(
        command("delete_scores", "hand", "COMET"), EXTERNAL, imported, import_comet
    ),
    # the admin
    "admin: a judgment changed": Write(
        change_in_admin(Judgment, lambda w: w.done(w.ann), sser=lambda w: "2"),
        JUDGMENTS,
        human_figures,
    ),
    "admin: a judgment deleted": Write(
        delete_in_admin(Judgment, lambda w: w.done(w.ann)), JUDGMENTS, human_figures
    ),
    "admin: judgments deleted (action)": Write(
        delete_selected(Judgment, lambda w: w.done(w.ann)), JUDGMENTS, human_figures
    ),
    "admin: a judge deleted, their judgments with them": Write(
        delete_in_admin(User, lambda w: w.bob), JUDGMENTS, human_figures
    ),
    "admin: a judge renamed": Write(
        change_in_admin(User, lambda w: w.bob, username=lambda w: "robert"),
        JUDGMENTS,
        left_out,
        leave_bob_out,
    ),
    "admin: judges deleted (action)": Write(
        delete_selected(User, lambda w: w.bob), JUDGMENTS, human_figures
    ),
    "admin: a judge left out on the corpus's form": Write(
        change_in_admin(Corpus, the_corpus, excluded_judges=lambda w: [str(w.bob.pk)]),
        JUDGMENTS,
        human_figures,
    ),
    "admin: a corpus's settings changed": Write(
        change_in_admin(Corpus, the_corpus, control_rate=lambda w: "7"), NONE
    ),
    # an MQM corpus's figures weigh its spans by it
    "admin: a corpus's MQM taxonomy changed": Write(
        change_in_admin(Corpus, the_corpus, mqm_taxonomy=lambda w: OTHER_TAXONOMY), JUDGMENTS
    ),
    "admin: a system renamed": Write(
        change_in_admin(Translator, a_system, name=lambda w: "worse"), TEXTS | JUDGMENTS
    ),
    "admin: a system deleted": Write(
        delete_in_admin(Translator, a_system), TEXTS | JUDGMENTS, items_to_judge
    ),
    "admin: systems deleted (action)": Write(
        delete_selected(Translator, a_system), TEXTS | JUDGMENTS, items_to_judge
    ),
    "admin: a sentence's document changed": Write(
        change_in_admin(Sentence, a_sentence, doc=lambda w: "another"), TEXTS | JUDGMENTS
    ),
    "admin: a sentence deleted": Write(
        delete_in_admin(Sentence, a_sentence), TEXTS | JUDGMENTS, items_to_judge
    ),
    "admin: a candidate's text changed": Write(
        change_in_admin(Target, a_candidate, text=lambda w: "a b c d"), TEXTS | JUDGMENTS
    ),
    "admin: a candidate's text changed, imported scores": Write(
        change_in_admin(Target, a_candidate, text=lambda w: "a b c d"),
        TEXTS | JUDGMENTS | EXTERNAL,
        imported,
        import_comet,
    ),
    "admin: a candidate's text changed, published system-level scores": Write(
        change_in_admin(Target, a_candidate, text=lambda w: "a b c d"),
        TEXTS | JUDGMENTS | EXTERNAL,
        published,
        import_published,
    ),
    "admin: a reference's text changed": Write(
        change_in_admin(Target, a_reference, text=lambda w: "a b"), TEXTS | JUDGMENTS
    ),
    "admin: a candidate deleted": Write(
        delete_in_admin(Target, a_candidate), TEXTS | JUDGMENTS, items_to_judge
    ),
}


def moved(before: Corpus, after: Corpus) -> Stamp:
    """The stamps whose values differ between two reads of a corpus."""
    out = Stamp.NONE
    for stamp, field in FIELDS.items():
        if getattr(before, field) != getattr(after, field):
            out |= stamp
    return out


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_every_write_moves_the_stamps_of_what_it_changes(world: World, write: Write) -> None:
    if write.given is not None:
        write.given(world)
    before = world.fresh()
    shown = None if write.figure is None else write.figure(before)

    write.does(world)

    after = world.fresh()
    assert moved(before, after) == write.moves
    if write.figure is not None:
        assert write.figure(after) != shown


@pytest.mark.parametrize(
    "write",
    [
        "a lead adds a system",
        "admin: a system deleted",
        "admin: a sentence deleted",
        "admin: a candidate deleted",
    ],
)
def test_a_change_of_the_texts_counts_the_corpus_sizes_again(world: World, write: str) -> None:
    """The corpus's sizes are stored (the campaign's progress reads ``n_candidates``, not
    a count of 20,000 targets): a write that adds or deletes texts counts them again."""
    WRITES[write].does(world)

    corpus, system = world.fresh(), Translator.Role.SYSTEM
    assert (corpus.n_sentences, corpus.n_systems, corpus.n_candidates) == (
        Sentence.objects.filter(corpus=corpus).count(),
        Translator.objects.filter(corpus=corpus, role=system).count(),
        Target.objects.filter(translator__corpus=corpus, translator__role=system).count(),
    )


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_after_every_write_the_kept_judgments_are_those_read_whole(
    world: World, write: Write
) -> None:
    """The rows of the judgments that this process kept before the write, brought up to
    date by reading those stamped since (or read again whole, after a change that named
    none), are the rows a whole read gives, in the same order, to the last bit."""
    if write.given is not None:
        write.given(world)
    if write.kept_before:
        kept = counted_judgments(world.fresh()).rows
        assert kept == judgment_rows(world.fresh())

    write.does(world)

    after = world.fresh()
    assert counted_judgments(after).rows == judgment_rows(after)


def test_a_changed_candidate_remembers_the_texts_stamp_it_changed_at(world: World) -> None:
    """The stored statistics are brought up to date by scoring only the candidates
    changed since they were scored (``Target.text_stamp``)."""
    judge_moves_a_word(world)

    changed = Target.objects.filter(sentence__corpus=world.corpus, text_stamp__gt=0)
    assert {(t.translator.name, t.sentence.position) for t in changed} == {
        ("speech", 1),
        ("speech", 2),
    }
    assert {t.text_stamp for t in changed} == {world.fresh().texts_stamp}
