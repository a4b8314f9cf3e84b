"""Write one batch of an import's sentences: the sentences, their new translators and
evaluators, the targets, the judgments with their aWER counts recomputed (a mismatch
warned of), their spans, times and imported suggestions, each kind in one bulk insert.

Its own module so that what one ``<sentence>`` becomes in the database can be read apart
from the course of the whole import (:mod:`annotation.corpora.imports`: the hidden
corpus, the transactions, the sizes, the removal of a failed one).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from annotation.corpora import evaltrans
from annotation.corpora.evaltrans import (
    EvalElement,
    SentenceElement,
    Timing,
    attrs_to_json,
    awer_text,
)
from annotation.corpora.evaltrans.imported_spans import ImportedElement
from annotation.corpora.evaluator_accounts import ANONYMOUS_EVALUATOR, new_evaluator_account
from annotation.corpora.import_state import ImportRefused, ImportState
from annotation.corpora.marked_spans import (
    ERR_IMPORTED_ON_REFERENCE,
    content_problem,
    imported_problem,
    imported_store,
    spans_store,
)
from annotation.corpora.spans import imported_severities
from annotation.ier import read_items
from annotation.models import Corpus, Judgment, Sentence, Target, Translator, User
from annotation.resegmenting import entry_from_attrs
from annotation.rows import TargetRow
from annotation.text import corpus_language, imported_new_ref_counts, readable_text, words

# A judgment still in progress is exported with this extra attribute (evalTrans keeps
# unknown attributes), so a re-import keeps it pending instead of counting it as done.
PENDING_ATTR = ("state", "pending")
ERR_JUDGMENT_ON_REFERENCE = "<eval> of reference {translator!r} carries a judgment"
WARN_AWER_RECOMPUTED = (
    "awer {given} of {translator!r} recomputed from its new reference as {actual}"
)
WARN_AWER_WITHOUT_NEW_REF = "awer {given} of {translator!r} has no <newRef>; kept as given"

ROLE_OF = {
    evaltrans.Role.FIRST_REFERENCE: Translator.Role.FIRST_REFERENCE,
    evaltrans.Role.REFERENCE: Translator.Role.REFERENCE,
    evaltrans.Role.SYSTEM: Translator.Role.SYSTEM,
}


@dataclass
class _BatchRows:
    """The rows one batch adds besides its sentences, created in one bulk insert each."""

    targets: list[TargetRow] = field(default_factory=list)
    judged: list[tuple[int, EvalElement]] = field(default_factory=list)  # (target index, <eval>)
    imported: list[tuple[int, ImportedElement]] = field(default_factory=list)  # a span file's


def import_batch(
    state: ImportState,
    batch: list[SentenceElement],
    reference_names: Collection[str],
    new_refs: list[tuple[str, dict[str, int]] | None],
) -> None:
    """Store one batch: sentences, new translators and evaluators, targets, judgments
    (``new_refs``: :func:`counted_new_refs` of the batch)."""
    sentences = Sentence.objects.bulk_create([_sentence_row(state.corpus, s) for s in batch])
    state.documents += [(s.pk, s.doc) for s in sentences]
    _ensure_translators(state, batch, reference_names)
    _ensure_evaluators(state, batch)
    rows = _BatchRows()
    for sentence, element in zip(sentences, batch, strict=True):
        n_refs = _add_sentence_targets(state, rows, sentence, element)
        state.refs_min = min(state.refs_min, n_refs)
        state.refs_max = max(state.refs_max, n_refs)
    for _, ev in rows.judged:
        problem = content_problem(ev, state.corpus.protocol, state.file_protocol)
        if problem is not None:
            raise ImportRefused(state.filename, ev.line, problem)
    for _, imported in rows.imported[:1]:
        problem = imported_problem(state.corpus.protocol)
        if problem is not None:
            raise ImportRefused(state.filename, imported.line, problem)
    state.target_writer.insert(target.values() for target in rows.targets)
    ids = _judged_target_ids(rows, sentences)
    imported_store([(ids[i], imported) for i, imported in rows.imported])
    judgments = Judgment.objects.bulk_create(
        [
            _judgment_from(state, rows.targets[i], ids[i], ev, counted)
            for (i, ev), counted in zip(rows.judged, new_refs, strict=True)
        ]
    )
    _keep_times(judgments, [ev for _, ev in rows.judged])
    spans_store(judgments, [ev for _, ev in rows.judged])
    state.judgments += len(rows.judged)
    state.sentences += len(batch)


def _judged_target_ids(rows: _BatchRows, sentences: list[Sentence]) -> dict[int, int]:
    """The database ids of the batch's judged targets (index in ``rows.targets`` → id),
    read back by sentence and position (a target's place in its sentence is its own);
    none asked when nothing is judged."""
    if not rows.judged and not rows.imported:
        return {}
    found = {
        (sentence_id, position): pk
        for pk, sentence_id, position in Target.objects.filter(
            sentence__in=[s.pk for s in sentences]
        ).values_list("pk", "sentence_id", "position")
    }
    targets = rows.targets
    wanted = {i for i, _ in rows.judged} | {i for i, _ in rows.imported}
    return {i: found[targets[i].sentence_id, targets[i].position] for i in wanted}


def _sentence_row(corpus: Corpus, element: SentenceElement) -> Sentence:
    return Sentence(
        corpus=corpus,
        position=element.position,
        xml_id=element.id,
        doc=element.doc,
        source=element.source,
        extra_attrs=attrs_to_json(element.extra_attrs),
        extra_xml=list(element.extra_xml),
        after_xml=list(element.after_xml),
    )


def _add_sentence_targets(
    state: ImportState, rows: _BatchRows, sentence: Sentence, element: SentenceElement
) -> int:
    """Add the sentence's targets and judgments to ``rows``; return its number of references.

    Every reference ``<eval>`` is a target of its own (a name may repeat: ``ordinal``
    numbers them); a system has one target, and its further ``<eval>`` are other
    evaluators' judgments of that same target.
    """
    system_target: dict[str, int] = {}  # system name → index of its target in rows.targets
    ordinals: dict[str, int] = {}
    n_refs = 0
    for position, ev in enumerate(element.evals):
        translator = state.translators[ev.translator]
        if translator.is_reference:
            if ev.imported is not None:
                reason = ERR_IMPORTED_ON_REFERENCE.format(translator=ev.translator)
                raise ImportRefused(state.filename, ev.imported.line, reason)
            if ev.judged:
                raise ImportRefused(
                    state.filename,
                    ev.line,
                    ERR_JUDGMENT_ON_REFERENCE.format(translator=ev.translator),
                )
            n_refs += 1
            ordinal = ordinals.get(ev.translator, 0)
            ordinals[ev.translator] = ordinal + 1
        elif ev.translator in system_target:
            if ev.judged:
                rows.judged.append((system_target[ev.translator], ev))
            else:  # a bare <eval> after the system's first: what it carries is the target's
                _keep_on_target(rows.targets[system_target[ev.translator]], ev)
            if ev.imported is not None:
                rows.imported.append((system_target[ev.translator], ev.imported))
            continue
        else:
            ordinal = 0
            system_target[ev.translator] = len(rows.targets)
        rows.targets.append(_target_row(sentence, translator, ordinal, position, ev))
        if ev.imported is not None:
            rows.imported.append((len(rows.targets) - 1, ev.imported))
        if ev.judged:
            rows.judged.append((len(rows.targets) - 1, ev))
    for name, index in system_target.items():
        entry = entry_from_attrs(rows.targets[index].extra_attrs)
        if entry is not None:
            state.segments.setdefault(name, {})[element.position] = entry
    return n_refs


def _keep_on_target(target: TargetRow, ev: EvalElement) -> None:
    """The unknown attributes and elements of a bare ``<eval>`` that is not the system's
    first in the sentence go on the target too, so the export writes them back."""
    target.extra_attrs = [*target.extra_attrs, *attrs_to_json(ev.extra_attrs)]
    target.extra_xml = [*target.extra_xml, *ev.extra_xml]


def _target_row(
    sentence: Sentence, translator: Translator, ordinal: int, position: int, ev: EvalElement
) -> TargetRow:
    """A target; a bare ``<eval>``'s unknown attributes and elements stay on it, a judged
    one's belong to its judgment (they are written back with it)."""
    bare = not ev.judged
    return TargetRow(
        sentence_id=sentence.pk,
        translator_id=translator.pk,
        ordinal=ordinal,
        position=position,
        text=ev.target,
        extra_attrs=attrs_to_json(ev.extra_attrs) if bare else [],
        extra_xml=list(ev.extra_xml) if bare else [],
    )


def counted_new_refs(
    state: ImportState, batch: list[SentenceElement]
) -> list[tuple[str, dict[str, int]] | None]:
    """Per judged ``<eval>`` of the batch, in file order (the order of its judgments), its
    new reference as stored and the counts stored with it (None: it has none), all
    counted together (:func:`~annotation.text.imported_new_ref_counts`). Computed before
    the batch's transaction: on SQLite, no judge's click waits for the searches. A
    judgment's target is its ``<eval>``'s text (a system's ``<eval>`` all give the same,
    :func:`~annotation.corpora.evaltrans.sentence_problem`)."""
    language = corpus_language(state.corpus)
    judged = [ev for element in batch for ev in element.evals if ev.judged]
    texts = [
        None if ev.new_ref is None else readable_text(ev.new_ref, language, cache=False)
        for ev in judged
    ]
    pairs = [(ev.target, t) for ev, t in zip(judged, texts, strict=True) if t is not None]
    counts = iter(imported_new_ref_counts(pairs))
    return [None if text is None else (text, next(counts)) for text in texts]


def _judgment_from(
    state: ImportState,
    target: TargetRow,
    target_id: int,
    ev: EvalElement,
    counted: tuple[str, dict[str, int]] | None,
) -> Judgment:
    """A judgment whose aWER counts are recomputed from target and new reference (13a
    words, seed 001 §2.3; ``counted``: the new reference as stored and its counts), so
    figures never rest on a fraction a file merely claims; a mismatch, or a fraction
    without a new reference to check it by, is a warning."""
    edits: int | None = None
    length: int | None = None
    counts: dict[str, int] = {}
    new_ref = ""
    if counted is not None:
        new_ref, counts = counted
        edits, length = counts["edits"], counts["ref_length"]
        if ev.awer is not None and ev.awer != (edits, length):
            state.warn(
                ev.line,
                WARN_AWER_RECOMPUTED.format(
                    given=awer_text(*ev.awer),
                    translator=ev.translator,
                    actual=awer_text(edits, length),
                ),
            )
    elif ev.awer is not None:
        edits, length = ev.awer
        state.warn(
            ev.line,
            WARN_AWER_WITHOUT_NEW_REF.format(
                given=awer_text(edits, length), translator=ev.translator
            ),
        )
    ier, problem = read_items(ev.ier, words(target.text, cache=False))
    if problem is not None:
        raise ImportRefused(state.filename, ev.line, problem)
    pending = PENDING_ATTR in ev.extra_attrs
    # An ESA or MQM judgment is done unless marked pending: a file that declares the
    # protocol writes the mark (a judgment without spans, or an MQM one, has no score).
    marked = state.corpus.marks_spans
    done = not pending and (marked or ev.sser is not None or edits is not None)
    timing = ev.timing or Timing()
    return Judgment(
        target_id=target_id,
        evaluator=state.evaluators[ev.evaluator or ANONYMOUS_EVALUATOR],
        sser=ev.sser,
        esa_score=ev.esa_score,
        new_ref=new_ref,
        edits=edits,
        ref_length=length,
        ter_edits=counts.get("ter_edits"),
        ter_length=counts.get("ter_length"),
        state=Judgment.State.DONE if done else Judgment.State.PENDING,
        extra_attrs=attrs_to_json(a for a in ev.extra_attrs if a != PENDING_ATTR),
        extra_xml=list(ev.extra_xml),
        note=ev.note or "",
        flag=ev.flag or "",
        severities=imported_severities(target.text, new_ref, ev, state.warn) if done else {},
        active_seconds=timing.active_seconds,
        ier_seconds=timing.ier_seconds,
        ier_clicks=timing.ier_clicks,
        **ier,
    )


def _keep_times(judgments: list[Judgment], evals: list[EvalElement]) -> None:
    """Give the judgments the first and last times their ``<eval>`` carry
    (``firstSeen``, ``lastChanged``): the insert stamps every row with the time of the
    import (the columns are ``auto_now``), so the file's times are written over it, in one
    more query, for the batches that have any."""
    timed = []
    for judgment, ev in zip(judgments, evals, strict=True):
        if ev.timing is None or (ev.timing.first_seen is None and ev.timing.last_changed is None):
            continue
        judgment.created_at = ev.timing.first_seen or judgment.created_at
        judgment.updated_at = ev.timing.last_changed or judgment.updated_at
        timed.append(judgment)
    if timed:
        Judgment.objects.bulk_update(timed, ["created_at", "updated_at"])


def _ensure_translators(
    state: ImportState, batch: list[SentenceElement], reference_names: Collection[str]
) -> None:
    for element in batch:
        for ev in element.evals:
            if ev.translator not in state.translators:
                role = evaltrans.translator_role(ev.translator, reference_names)
                state.translators[ev.translator] = Translator.objects.create(
                    corpus=state.corpus,
                    name=ev.translator,
                    role=ROLE_OF[role],
                    position=len(state.translators),
                )


def _ensure_evaluators(state: ImportState, batch: list[SentenceElement]) -> None:
    """Evaluators named in the file become inactive judges (activated later by a lead),
    assigned to the corpus if the import was asked to (``state.assign``).

    A judgment without an ``evaluator`` attribute is attributed to the inactive account
    :data:`~annotation.corpora.evaluator_accounts.ANONYMOUS_EVALUATOR`.
    """
    wanted = {
        ev.evaluator or ANONYMOUS_EVALUATOR
        for element in batch
        for ev in element.evals
        if ev.judged
    } - state.evaluators.keys()
    if not wanted:
        return
    for user in User.objects.filter(username__in=wanted):
        state.evaluators[user.username] = user
    for username in sorted(wanted - state.evaluators.keys()):
        user = new_evaluator_account(username)
        state.evaluators[username] = user
        state.created_evaluators.append(user)
    if state.assign:
        state.corpus.judges.add(*(state.evaluators[u] for u in wanted))
