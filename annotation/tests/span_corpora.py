"""Corpora judged by error spans (ESA, MQM) with done judgments made directly, not through
the judge's page: for the tests of what the figures make of them (issue 41, point 5)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from annotation.changes import judgments_changed
from annotation.models import Corpus, Judgment, Span, Target, User
from annotation.tests.factories import import_xml, in_file_order, targets_at
from annotation.text import new_ref_counts


def span_corpus(
    protocol: str,
    judge: User,
    *,
    systems: Sequence[str] = ("A", "B"),
    sentences: int = 4,
    name: str = "spans",
) -> Corpus:
    """``sentences`` sentences, each with a reference and a candidate of every system
    (each candidate differs from the reference: an aWER figure, were it read, would not
    be 0), judged under ``protocol``."""
    body = "".join(
        f'<sentence doc="d"><source>source {k}</source>'
        f'<eval translator="first reference"><target>the cat sat on mat {k}</target></eval>'
        + "".join(
            f'<eval translator="{s}"><target>a dog ran {s} {k}</target></eval>' for s in systems
        )
        + "</sentence>"
        for k in range(sentences)
    )
    corpus = in_file_order(import_xml(f"<evalTrans>{body}</evalTrans>", name, judge))
    corpus.protocol = protocol
    corpus.save(update_fields=["protocol"])
    return corpus


def span_judgment(
    corpus: Corpus,
    judge: User,
    system: str,
    position: int,
    *,
    esa: int | None = None,
    spans: Sequence[tuple[int, int, str, str]] = (),
    suggested: Sequence[tuple[int, int, str, str]] = (),
) -> Judgment:
    """A done judgment of ``system``'s candidate for sentence ``position``, as the ESA /
    MQM page leaves one: started from the nearest reference (its aWER counts stored, as
    every judgment's are), scored ``esa`` (ESA), with the judge's ``spans`` and the
    ``suggested`` ones, each (start, end, severity, category)."""
    target = Target.objects.get(
        sentence__corpus=corpus, sentence__position=position, translator__name=system
    )
    judgment = _done(target, position, judge, esa)
    judgment.save()
    Span.objects.bulk_create(
        [
            *_spans(judgment, Span.Origin.JUDGE, "", spans),
            *_spans(judgment, Span.Origin.SUGGESTED, Span.Source.AWER, suggested),
        ]
    )
    judgments_changed(corpus.pk)  # as every write of a done one
    return judgment


#: One judgment of :func:`span_judgments`: the judge, the system, the sentence's position,
#: its ESA score and the judge's spans (as :func:`span_judgment` takes them).
SpanJudgment = tuple[User, str, int, int | None, Sequence[tuple[int, int, str, str]]]


def span_judgments(corpus: Corpus, judgments: Iterable[SpanJudgment]) -> list[Judgment]:
    """Many :func:`span_judgment` at once, in their order (none with suggested spans):
    the same rows, written in one insert of the judgments and one of their spans after
    one read of the candidates, the change told once. Judgment by judgment, the 54 of
    an ESA corpus of 12 sentences cost a test a third of a second."""
    wanted = list(judgments)
    targets = targets_at(corpus, [(system, position) for _, system, position, *_ in wanted])
    made = Judgment.objects.bulk_create(
        _done(targets[(system, position)], position, judge, esa)
        for judge, system, position, esa, _ in wanted
    )
    Span.objects.bulk_create(
        span
        for judgment, (*_, spans) in zip(made, wanted, strict=True)
        for span in _spans(judgment, Span.Origin.JUDGE, "", spans)
    )
    judgments_changed(corpus.pk)  # as every write of a done one
    return made


def _done(target: Target, position: int, judge: User, esa: int | None) -> Judgment:
    """:func:`span_judgment`'s judgment of ``target`` (of sentence ``position``), not
    saved yet: started from the nearest reference, scored ``esa``."""
    reference = f"the cat sat on mat {position}"
    return Judgment(
        target=target,
        evaluator=judge,
        esa_score=esa,
        new_ref=reference,
        **new_ref_counts(target.text, reference),
        state=Judgment.State.DONE,
    )


def _spans(
    judgment: Judgment, origin: str, source: str, marked: Sequence[tuple[int, int, str, str]]
) -> list[Span]:
    """The judgment's spans of this origin, not saved yet."""
    return [
        Span(
            judgment=judgment,
            start=a,
            end=b,
            severity=s,
            category=c,
            origin=origin,
            source=source,
        )
        for a, b, s, c in marked
    ]
