"""The lead's control-item settings of a corpus: input validation only (the ranges are
the model's validators, so the form, the command line and the database agree; the
numbers are read in the digits 0–9 only, :class:`~annotation.fields.WholeNumberField`)."""

from __future__ import annotations

from typing import Any

from django import forms

from annotation.fields import WholeNumberField
from annotation.models import CONTROL_RATE_MAX, CONTROL_RATE_MIN, Corpus


class ControlSettingsForm(forms.ModelForm[Corpus]):
    """On or off, the rate (one control in every N items) and the pass threshold (%)."""

    class Meta:
        model = Corpus
        fields = ("controls_enabled", "control_rate", "control_pass_threshold")
        field_classes = {
            "control_rate": WholeNumberField,
            "control_pass_threshold": WholeNumberField,
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The inputs' min and max (the model's validators do the refusing).
        ranges = {
            "control_rate": (CONTROL_RATE_MIN, CONTROL_RATE_MAX),
            "control_pass_threshold": (0, 100),
        }
        for name, (low, high) in ranges.items():
            field = self.fields[name]
            if not isinstance(field, forms.IntegerField):
                raise TypeError(f"{name} is not an integer field")
            field.min_value, field.max_value = low, high
