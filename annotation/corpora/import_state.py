"""What a streaming import keeps between its batches (:class:`ImportState`), and its
refusal (:class:`ImportRefused`).

Its own module because both the import's course (:mod:`annotation.corpora.imports`: the
hidden corpus, its batches, its end) and the writing of one batch
(:mod:`annotation.corpora.import_batches`) read them, and neither imports the other's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from annotation.corpora.evaltrans import EvalTransError
from annotation.models import Corpus, Target, Translator, User
from annotation.rows import TARGET_COLUMNS, RowWriter

MAX_WARNINGS = 200


class ImportRefused(EvalTransError):
    """The file was refused; nothing of it is left in the database."""


@dataclass
class ImportState:
    """What the streaming import keeps between batches: the small things only."""

    corpus: Corpus
    filename: str
    #: Whether the file's evaluators become the corpus's judges
    #: (:func:`~annotation.corpora.imports.corpus_import`).
    assign: bool = False
    #: The protocol the file declares (``judgingProtocol``; None: none, aWER).
    file_protocol: str | None = None
    translators: dict[str, Translator] = field(default_factory=dict)
    evaluators: dict[str, User] = field(default_factory=dict)
    created_evaluators: list[User] = field(default_factory=list)
    sentences: int = 0
    #: Each stored sentence's (id, document), in file order: the queue's order is drawn
    #: from the documents once every sentence is in
    #: (:func:`~annotation.corpora.imports._store_queue_order`).
    documents: list[tuple[int, str | None]] = field(default_factory=list)
    refs_min: int = 10**9
    refs_max: int = 0
    judgments: int = 0
    warnings: list[str] = field(default_factory=list)
    warnings_total: int = 0
    #: Per system, the segment records its targets carry (sentence position → entry):
    #: a system that carries one on every sentence was re-segmented (seed 002).
    segments: dict[str, dict[int, list[int]]] = field(default_factory=dict)
    target_writer: RowWriter = field(default_factory=lambda: RowWriter(Target, TARGET_COLUMNS))

    def warn(self, line: int, message: str) -> None:
        self.warnings_total += 1
        if len(self.warnings) < MAX_WARNINGS:
            self.warnings.append(f"{self.filename} line {line}: {message}")
