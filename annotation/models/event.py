"""The event log of judgments: every change a judge makes, with the state before and after.

It names the judgment by string and needs nothing else of the schema.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class JudgmentEvent(models.Model):
    """One row per thing a judge did to a judgment: who, when, and the state before and after.

    *Change* events (everything but ``open``, ``undo`` and ``redo``) carry a ``status``
    that makes the undo/redo stack: ``applied``, ``undone`` (on the redo stack) or
    ``discarded`` (a newer change emptied the redo stack). ``undo`` and ``redo`` rows
    record the walk itself and name the change they moved in ``detail["event"]``; ``open``
    rows record that the page was shown (``annotation.judging.active_time``). ``before``
    and ``after`` hold what undo and redo restore (``annotation.judging.stack``).
    """

    class Kind(models.TextChoices):
        OPEN = "open", "Page shown"
        ACCEPT_OP = "accept_op", "Accepted an operation"
        EDIT_WORD = "edit_word", "Edited a word of the new reference"
        EDIT_REF = "edit_ref", "Rewrote the new reference"
        USE_REF = "use_ref", "Took a reference of the pool"
        AS_IS = "as_is", "Took the candidate as it is"
        SET_NOTE = "set_note", "Wrote a note or a flag"
        SET_SEVERITY = "set_severity", "Marked an error major or minor"
        IER_SPLIT = "ier_split", "Split or joined information items"
        IER_MARK = "ier_mark", "Marked an information item"
        MOVE_WORD = "move_word", "Moved a word across a segment boundary"
        SET_SSER = "set_sser", "Scored SSER"
        MARK_SPAN = "mark_span", "Marked, changed or removed an error span"
        SET_ESA = "set_esa", "Scored ESA (0–100)"
        FINISH = "finish", "Accepted the judgment"
        UNDO = "undo", "Undo"
        REDO = "redo", "Redo"

    class Status(models.TextChoices):
        NONE = "", "Not a change"
        APPLIED = "applied", "Applied"
        UNDONE = "undone", "Undone"
        DISCARDED = "discarded", "Discarded"

    judgment = models.ForeignKey(
        "annotation.Judgment", on_delete=models.CASCADE, related_name="events"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="judgment_events"
    )
    created_at = models.DateTimeField(default=timezone.now)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, blank=True, default="")
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    detail = models.JSONField(default=dict, blank=True)
    version = models.PositiveIntegerField(help_text="The judgment's version after this event.")

    class Meta:
        ordering = ["judgment", "pk"]
        indexes = [
            models.Index(fields=["judgment", "status"], name="event_judgment_status"),
            models.Index(fields=["judgment", "created_at"], name="event_judgment_time"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} on judgment {self.judgment_id} at {self.created_at:%Y-%m-%d %H:%M:%S}"
