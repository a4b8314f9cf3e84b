"""The form fields of numbers, for every form that reads one (the lead's settings, the
command lines that go through those forms, the admin): read by the one rule of
:mod:`metrics.numerals`, ASCII digits only.

Django's ``IntegerField`` reads what Python's ``int`` reads, so a lead's "one control in
every ٣ items" (Arabic-Indic 3) or "３" (full-width) was stored as 3; this field refuses
it with the value and the reason, as the form's error of that field (400 on a page,
``--rate: …`` on the command line), and stores nothing.

A name the corpus's and the campaign's forms both take is checked here as well
(:func:`writable_name`): what the export cannot write back is refused at the form.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

from annotation.limits import non_xml_char_problem
from metrics.numerals import DECIMAL_NUMBER, ERR_NOT_DECIMAL, ERR_NOT_WHOLE, WHOLE_NUMBER


def _refuse_other_digits(
    field: forms.Field, value: Any, pattern: re.Pattern[str], err: str
) -> None:
    """Refuse ``value`` unless it is a number as ``pattern`` writes it: Django's own
    message for ASCII text ("Enter a whole number." for "ten"), else ``err`` naming it (for
    "٣" Django's would not say why)."""
    if value in field.empty_values or isinstance(value, int | float):
        return
    text = str(value).strip()
    if pattern.fullmatch(text) is None:
        message = field.error_messages["invalid"] if text.isascii() else err.format(text=text)
        raise ValidationError(message, code="invalid")


class WholeNumberField(forms.IntegerField):
    """Django's ``IntegerField`` that reads a whole number in the digits 0–9 and nothing
    else (:data:`~metrics.numerals.WHOLE_NUMBER`; blanks around it aside, as Django
    strips them)."""

    def to_python(self, value: Any) -> int | None:
        _refuse_other_digits(self, value, WHOLE_NUMBER, ERR_NOT_WHOLE)
        return super().to_python(value)


class DecimalNumberField(forms.FloatField):
    """Django's ``FloatField`` that reads a number in the digits 0–9 (and a point) and
    nothing else (:data:`~metrics.numerals.DECIMAL_NUMBER`), as
    :class:`WholeNumberField` does for whole numbers: ``float`` reads "٣" and "３" too."""

    def to_python(self, value: Any) -> Any:  # float | None (the stubs' FloatField is an int's)
        _refuse_other_digits(self, value, DECIMAL_NUMBER, ERR_NOT_DECIMAL)
        return super().to_python(value)


#: A ``ModelAdmin``'s ``formfield_overrides`` (and a model form's ``field_classes``
#: alike): every integer column of the model is read by :class:`WholeNumberField`.
WHOLE_NUMBER_COLUMNS: dict[type[models.Field[Any, Any]], dict[str, Any]] = {
    models.IntegerField: {"form_class": WholeNumberField},
    models.BigIntegerField: {"form_class": WholeNumberField},
}


def writable_name(name: str) -> str:
    """``name``, if the export can write it back (no character XML cannot hold): a
    corpus's name, or its campaign's."""
    problem = non_xml_char_problem(name)
    if problem is not None:
        raise ValidationError(f"the name: {problem}")
    return name
