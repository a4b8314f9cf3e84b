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

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

from annotation.limits import non_xml_char_problem
from metrics.numerals import ERR_NOT_WHOLE, WHOLE_NUMBER


class WholeNumberField(forms.IntegerField):
    """Django's ``IntegerField`` that reads a whole number in the digits 0–9 and nothing
    else (:data:`~metrics.numerals.WHOLE_NUMBER`; blanks around it aside, as Django
    strips them)."""

    def to_python(self, value: Any) -> int | None:
        if value not in self.empty_values and not isinstance(value, int):
            text = str(value).strip()
            if WHOLE_NUMBER.fullmatch(text) is None:
                # Django's "Enter a whole number." for "ten"; for "٣" it would not say why
                message = (
                    self.error_messages["invalid"]
                    if text.isascii()
                    else ERR_NOT_WHOLE.format(text=text)
                )
                raise ValidationError(message, code="invalid")
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
