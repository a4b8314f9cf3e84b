"""Nothing a judge can observe tells a control item from a real one, or a run with
controls from one without (issue 35). The same judge walks the same queue twice, as the
judge's page and the home page (open in a second tab) show it, once with controls on and
once with them off, and every item is read as a judge reads it: the header's counts and
label, the references and new references the pool lists, the pre-fill and its note, the
page's markup, the home page's count. The rules, for every item, control or real:

* every run is its sentence's candidates and the same number of controls; "candidate k
  of N" counts 1 … N in every run, N the same on every item of a run and N − (the
  sentence's candidates) the same in every run; the labels of a run are "System 1" …
  "System N";
* a candidate identical to one the judge already judged in the sentence (a control or a
  real one) is pre-filled from it, and the note says which ("candidate k"); no other is;
* the pool lists every corpus reference but one drawn per sentence (in every run alike),
  and the new references of the items the judge accepted before in the sentence,
  controls' included; nothing else;
* the home page counts what the header counts, after every item;
* a control's page is a real item's page but for its texts.

With controls off, every real item shows what it showed with them on, but for the counts
that change in every run alike (N, the labels, "done x / T") and the reference drawn out
of the pool."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.test import Client
from lxml import etree

from annotation.controls.runs import Placement, controls_per_run, drawn_reference
from annotation.corpora.imports import corpus_import
from annotation.models import Corpus, Judgment, JudgmentEvent, User
from annotation.tests.controls.test_page import skeleton
from annotation.tests.factories import finish, write_corpus
from annotation.text import words

pytestmark = pytest.mark.django_db

SENTENCES, SYSTEMS, RATE = 4, 14, 8


def twin_corpus(path: Path, judge: User) -> Corpus:
    """A blind corpus of 14 systems whose candidates come in identical pairs (system s
    and s + 7), the last system's equal to each sentence's second reference (so a
    reference shown as a control is a text the judge also meets as a candidate), with
    controls on: two a run."""
    refs = [[f"first reference of {k} .", f"second reference of {k} ."] for k in range(SENTENCES)]
    hyps = {
        f"system {s:02}": [f"system {s % 7} says {k} badly ." for k in range(SENTENCES)]
        for s in range(SYSTEMS - 1)
    }
    hyps[f"system {SYSTEMS - 1}"] = [seg[1] for seg in refs]
    source = write_corpus(path / "twins.xml", refs, hyps)
    corpus = corpus_import(source=source, name="twins", score=False).corpus
    corpus.judges.add(judge)
    corpus.controls_enabled, corpus.control_rate, corpus.blind = True, RATE, True
    corpus.save()
    return corpus


@dataclass
class Seen:
    """One item as the judge saw it."""

    judgment: Judgment
    shown: tuple[str, ...]  # the candidate's words
    sentence: int
    k: int
    n: int
    done: int
    total: int
    label: str
    references: list[str]  # the pool's corpus references
    new_refs: list[str]  # the pool's new references
    note: str | None  # the pre-fill's note
    started: tuple[str, int | None]  # the new reference and SSER the item opened with
    home: str  # the home page's count, read after the item's page
    page: list


def answer(shown: tuple[str, ...], sentence: int) -> str:
    """The judge's new reference for a candidate: one of two per sentence, the same for
    identical candidates (so the whole pool stays in sight: at most four entries)."""
    return f"variant {sum(map(ord, ' '.join(shown))) % 2} of sentence {sentence} ."


def walk(client: Client, corpus: Corpus, judge: User) -> list[Seen]:
    """The judge's whole queue through the pages: the next item, its page, the home
    page beside it; then the item answered (the pre-fill kept where there is one)."""
    out = []
    while True:
        response = client.get(f"/corpora/{corpus.pk}/judge/")
        if response.status_code != 302:
            assert b'id="all-done"' in response.content
            return out
        html = client.get(response["Location"]).content.decode()
        tree = etree.HTML(html)
        pk = int(response["Location"].rstrip("/").rsplit("/", 1)[1])
        judgment = Judgment.objects.select_related("target").get(pk=pk)
        position = re.sub(r"\s+", " ", "".join(tree.find('.//*[@id="position"]').itertext()))
        sentence, k, n, done, total = map(
            int,
            re.fullmatch(
                r" ?sentence (\d+) of \d+ · candidate (\d+) of (\d+) · done (\d+)/(\d+) ?",
                position,
            ).groups(),
        )
        pool = [
            (li.find("button").text, li.find('span[@class="pool-meta"]').text.split(" · ")[0])
            for li in tree.iterfind('.//*[@id="pool"]/li')
        ]
        note = tree.find('.//*[@id="reuse-note"]')
        home = etree.HTML(client.get("/").content.decode())
        shown = words(judgment.candidate_text)
        out.append(
            Seen(
                judgment=judgment,
                shown=shown,
                sentence=sentence,
                k=k,
                n=n,
                done=done,
                total=total,
                label=tree.find('.//*[@id="translator-label"]').text,
                references=[t for t, kind in pool if kind != "new reference"],
                new_refs=[t for t, kind in pool if kind == "new reference"],
                note=None if note is None else note.text,
                started=(judgment.new_ref, judgment.sser),
                home=home.find(f'.//*[@data-progress="{corpus.name}"]').text,
                page=skeleton(html),
            )
        )
        if note is not None:  # confirm the pre-fill, as "c" does
            finish(judgment, judge, judgment.new_ref, judgment.sser)
        else:
            finish(judgment, judge, answer(shown, sentence), 7)


def walks(tmp_path: Path, judge: User) -> tuple[Corpus, list[Seen], list[Seen]]:
    """The judge's queue walked with controls on, then (the judge's work cleared) off."""
    corpus = twin_corpus(tmp_path, judge)
    client = Client()
    client.force_login(judge)
    with_controls = walk(client, corpus, judge)
    JudgmentEvent.objects.filter(judgment__evaluator=judge).delete()
    Judgment.objects.filter(evaluator=judge).delete()
    corpus.controls_enabled = False
    corpus.save()
    return corpus, with_controls, walk(client, corpus, judge)


def runs_of(seen: list[Seen]) -> list[list[Seen]]:
    return [list(run) for _, run in itertools.groupby(seen, key=lambda s: s.sentence)]


def every_run_has_the_same_length_counts_and_labels(
    walks: tuple[Corpus, list[Seen], list[Seen]],
) -> None:
    corpus, on, off = walks
    per_run = controls_per_run(RATE, SYSTEMS)

    runs = runs_of(on)

    assert per_run == 2
    assert [len(run) for run in runs] == [SYSTEMS + per_run] * SENTENCES
    for run in runs:
        assert [s.k for s in run] == list(range(1, len(run) + 1))
        assert {s.n for s in run} == {len(run)}
        assert sorted(s.label for s in run) == sorted(f"System {i}" for i in range(1, len(run) + 1))
        assert sum(1 for s in run if s.judgment.control) == per_run
    assert {len(run) for run in runs_of(off)} == {SYSTEMS}


def every_identical_candidate_is_pre_filled_control_or_not(
    walks: tuple[Corpus, list[Seen], list[Seen]],
) -> None:
    """Pre-filled with its note exactly where the judge already judged the same words in
    the sentence, whichever of the two was a control; the note names that item."""
    corpus, on, off = walks
    controls_met = {s.judgment.control for s in on if s.judgment.control}
    assert controls_met == {Judgment.Control.REFERENCE, Judgment.Control.DEGRADED}
    pre_filled = 0
    for walked in (on, off):
        for run in runs_of(walked):
            for at, seen in enumerate(run):
                before = [s for s in run[:at] if s.shown == seen.shown]
                if not before:
                    assert seen.note is None
                    continue
                pre_filled += 1
                assert f"(candidate {before[-1].k} of this sentence)" in seen.note
    assert pre_filled >= SENTENCES * 7  # each twin's second candidate at least
    # a reference shown as a control is the last system's words: one of the two is
    # pre-filled from the other, whichever came first
    references = [s for s in on if s.judgment.control == Judgment.Control.REFERENCE]
    assert references
    for control in references:
        twins = [s for s in on if s.shown == control.shown]
        assert len(twins) == 2
        assert twins[1].note is not None


def the_pool_lists_the_same_references_and_every_new_one_before(
    walks: tuple[Corpus, list[Seen], list[Seen]],
) -> None:
    corpus, on, off = walks
    for walked, controls in ((on, True), (off, False)):
        for run in runs_of(walked):
            sentence = corpus.sentences.get(position=run[0].sentence - 1)
            references = [
                f"first reference of {sentence.position} .",
                f"second reference of {sentence.position} .",
            ]
            hidden = drawn_reference(run[0].judgment.evaluator_id, sentence.pk, references)
            for at, seen in enumerate(run):
                assert sorted(seen.references) == [
                    r for r in references if not controls or r != hidden
                ]
                accepted = {" ".join(words(s.judgment.new_ref)) for s in run[:at]}
                accepted -= {" ".join(words(r)) for r in references}
                assert set(seen.new_refs) == accepted, (seen.k, seen.judgment.control)
    assert any(s.new_refs for s in on if s.judgment.control)


def the_home_page_counts_what_the_header_counts(
    walks: tuple[Corpus, list[Seen], list[Seen]],
) -> None:
    corpus, on, off = walks
    for walked in (on, off):
        assert [s.done for s in walked] == list(range(len(walked)))
        assert {s.total for s in walked} == {len(walked)}
        assert [s.home for s in walked] == [f"{s.done}/{s.total}" for s in walked]
    assert len(on) == len(off) + SENTENCES * controls_per_run(RATE, SYSTEMS)


def a_controls_page_is_a_real_items_but_for_its_texts(
    walks: tuple[Corpus, list[Seen], list[Seen]],
) -> None:
    """Every control's page has the markup of a real item's page, pre-filled or not as
    the control is (the note is a part of the markup)."""
    corpus, on, off = walks

    real = {s.note is not None: s.page for s in on if not s.judgment.control and s.done > 0}
    assert set(real) == {True, False}
    for seen in on:
        if seen.judgment.control:
            assert seen.page == real[seen.note is not None], seen.judgment.control


def with_controls_off_each_real_item_shows_the_same(
    walks: tuple[Corpus, list[Seen], list[Seen]],
) -> None:
    """Every real item: the same source, candidate, pre-fill and note (its number aside),
    the same pool but for the drawn reference; its counts change as every run's do."""
    corpus, on, off = walks
    placement = Placement.of(corpus, on[0].judgment.evaluator_id)
    assert placement.per_run == 0  # off now

    real_on = {s.judgment.target_id: s for s in on if not s.judgment.control}
    real_off = {s.judgment.target_id: s for s in off}
    assert real_on.keys() == real_off.keys()
    for target, seen in real_off.items():
        shown = real_on[target]
        assert (shown.sentence, shown.shown) == (seen.sentence, seen.shown)
        assert re.fullmatch(r"System \d+", shown.label)
        assert re.fullmatch(r"System \d+", seen.label)
        assert len(shown.references) == len(seen.references) - 1
        assert set(shown.references) < set(seen.references)
        if shown.note and seen.note:  # pre-filled from the same words, answered alike
            assert shown.started == seen.started


def test_nothing_a_judge_sees_tells_a_control_or_a_run_with_controls(
    tmp_path: Path, judge: User
) -> None:
    """The queue is walked twice (the slow part), then each rule above is checked."""
    walked = walks(tmp_path, judge)

    every_run_has_the_same_length_counts_and_labels(walked)
    every_identical_candidate_is_pre_filled_control_or_not(walked)
    the_pool_lists_the_same_references_and_every_new_one_before(walked)
    the_home_page_counts_what_the_header_counts(walked)
    a_controls_page_is_a_real_items_but_for_its_texts(walked)
    with_controls_off_each_real_item_shows_the_same(walked)
