"""Judgments made in another tool (Appraise, WMT's MQM releases), checked and resolved
against a corpus's texts, written: one writer for every such import.

Each :class:`ImportedJudgment` names its candidate by translator and sentence position,
its annotator by name, and carries what the other tool recorded: a score, error spans,
the times it was started and finished. All of a file's judgments are written in one
transaction, or none; an annotator without an account gets the inactive judge account
every import makes (:mod:`~annotation.corpora.evaluator_accounts`), removed again if the
write fails. The corpus's judgments stamp moves with them (:mod:`annotation.changes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from django.db import connection, transaction

from annotation.changes import judgments_changed
from annotation.corpora.evaluator_accounts import new_evaluator_account, remove_unused_accounts
from annotation.corpora.import_state import ImportRefused
from annotation.corpora.removal import delete_corpus_rows
from annotation.models import Corpus, Judgment, Span, Target, User

ERR_JUDGED_ALREADY = "{user!r} has judged this item of the corpus already"


class Summary(Protocol):
    """What an import stored, in the lines a page or command prints."""

    def lines(self) -> list[str]: ...


class CampaignImport(Protocol):
    """An import of another tool's file: into a new corpus of WMT's texts (``texts``,
    ``pair``, ``name``) or into ``corpus``."""

    def __call__(
        self,
        *,
        data: bytes,
        filename: str,
        pair: str | None,
        texts: Path | None,
        name: str | None,
        corpus: Corpus | None,
    ) -> Summary: ...


@dataclass(frozen=True)
class ImportedSpan:
    """One error span on the stored candidate: characters ``[start, end)``, or a
    ``[MISSING]`` marker (``start == end``)."""

    start: int
    end: int
    severity: str
    category: str = ""
    missing: bool = False


@dataclass(frozen=True)
class ImportedJudgment:
    """One judgment to store (module doc); ``line``: where the file has it."""

    line: int
    user: str
    translator: str
    position: int
    control: str = Judgment.Control.NONE
    shown_as: str | None = None
    esa_score: int | None = None
    #: Unix seconds: when it was started and finished (None: the file does not say).
    started: float | None = None
    ended: float | None = None
    spans: tuple[ImportedSpan, ...] = ()

    @property
    def key(self) -> tuple[str, str, int, str]:
        """What the database allows once: a judge's judgment of a candidate, per kind."""
        return (self.user, self.translator, self.position, self.control)


def refuse_judged_again(
    corpus: Corpus, judgments: Sequence[ImportedJudgment], filename: str
) -> None:
    """The first judgment whose annotator judged its candidate (of its kind) in the
    corpus already, refused with its line; one query."""
    users = {j.user for j in judgments}
    done = set(
        Judgment.objects.of_corpus(corpus.pk)
        .filter(evaluator__username__in=users)
        .values_list(
            "evaluator__username",
            "target__translator__name",
            "target__sentence__position",
            "control",
        )
    )
    for j in judgments:
        if j.key in done:
            raise ImportRefused(filename, j.line, ERR_JUDGED_ALREADY.format(user=j.user))


def store_imported_judgments(
    corpus: Corpus, judgments: Sequence[ImportedJudgment], *, new_corpus: bool = False
) -> set[str]:
    """Write ``judgments`` (done) and their spans in one transaction; the annotators'
    names. ``new_corpus``: the import made ``corpus`` for them, and a failure removes
    it too (all or nothing)."""
    try:
        return _store(corpus, judgments)
    except BaseException:
        if new_corpus:
            delete_corpus_rows(corpus)
        raise


def _store(corpus: Corpus, judgments: Sequence[ImportedJudgment]) -> set[str]:
    users = {j.user for j in judgments}
    made: list[User] = []
    try:
        with transaction.atomic():
            accounts = {u.username: u for u in User.objects.filter(username__in=users)}
            for username in sorted(users - accounts.keys()):
                accounts[username] = new_evaluator_account(username)
                made.append(accounts[username])
            targets = {
                (name, position): pk
                for pk, name, position in Target.objects.filter(
                    sentence__corpus=corpus, ordinal=0
                ).values_list("pk", "translator__name", "sentence__position")
            }
            translators = dict(corpus.translators.values_list("name", "pk"))
            rows = Judgment.objects.bulk_create(
                [_row(j, targets, translators, accounts) for j in judgments]
            )
            _keep_times(rows, judgments)
            Span.objects.bulk_create(
                Span(
                    judgment=row,
                    start=s.start,
                    end=s.end,
                    missing=s.missing,
                    severity=s.severity,
                    category=s.category,
                )
                for row, j in zip(rows, judgments, strict=True)
                for s in j.spans
            )
            judgments_changed(corpus.pk)
    except BaseException:
        remove_unused_accounts(made)
        raise
    return users


def _row(
    j: ImportedJudgment,
    targets: dict[tuple[str, int], int],
    translators: dict[str, int],
    accounts: dict[str, User],
) -> Judgment:
    timed = j.started is not None and j.ended is not None
    return Judgment(
        target_id=targets[j.translator, j.position],
        evaluator=accounts[j.user],
        esa_score=j.esa_score,
        state=Judgment.State.DONE,
        active_seconds=(j.ended or 0) - (j.started or 0) if timed else 0,
        control=j.control,
        shown_as_id=None if j.shown_as is None else translators[j.shown_as],
    )


def _keep_times(rows: list[Judgment], judgments: Sequence[ImportedJudgment]) -> None:
    """The file's times over the import's (the columns are ``auto_now``), one prepared
    statement for them all: ``bulk_update`` builds a ``CASE`` per row, 46 of the 53
    seconds of 20,000 judgments on SQLite."""
    ops = connection.ops
    table = ops.quote_name(Judgment._meta.db_table)
    sql = f"UPDATE {table} SET created_at = %s, updated_at = %s WHERE id = %s"  # noqa: S608
    timed = [
        (
            ops.adapt_datetimefield_value(datetime.fromtimestamp(j.started, tz=UTC)),
            ops.adapt_datetimefield_value(datetime.fromtimestamp(j.ended, tz=UTC)),
            row.pk,
        )
        for row, j in zip(rows, judgments, strict=True)
        if j.started is not None and j.ended is not None
    ]
    if timed:
        with connection.cursor() as cursor:
            cursor.executemany(sql, timed)
