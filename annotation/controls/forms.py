"""The lead's control-item settings of a corpus: input validation only (the ranges are
the model's validators, so the form, the command line and the database agree; the
numbers are read in the digits 0–9 only, :class:`~annotation.fields.WholeNumberField`,
:class:`~annotation.fields.DecimalNumberField`). An ESA or MQM corpus also has its drop
and tolerance (:mod:`annotation.controls.scored`), in its protocol's points; an aWER
corpus has none to set."""

from __future__ import annotations

from typing import Any

from django import forms

from annotation.fields import DecimalNumberField, WholeNumberField
from annotation.models import CONTROL_RATE_MAX, CONTROL_RATE_MIN, Corpus
from annotation.models.corpus import CONTROL_MQM_DROP_MIN, CONTROL_MQM_MAX
from metrics.protocols import ESA_MAX

#: The drop and tolerance fields each protocol's corpora have (ESA with pre-filled
#: spans is scored as ESA is).
ESA_FIELDS = ("control_esa_drop", "control_esa_tolerance")
MQM_FIELDS = ("control_mqm_drop", "control_mqm_tolerance")


class ControlSettingsForm(forms.ModelForm[Corpus]):
    """On or off, the rate (one control in every N items), the pass threshold (%), and
    in an ESA / MQM corpus the drop and tolerance of its scores."""

    class Meta:
        model = Corpus
        fields = (
            "controls_enabled",
            "control_rate",
            "control_pass_threshold",
            *ESA_FIELDS,
            *MQM_FIELDS,
        )
        field_classes = {
            "control_rate": WholeNumberField,
            "control_pass_threshold": WholeNumberField,
            "control_esa_drop": WholeNumberField,
            "control_esa_tolerance": WholeNumberField,
            "control_mqm_drop": DecimalNumberField,
            "control_mqm_tolerance": DecimalNumberField,
        }

    @staticmethod
    def fields_of(corpus: Corpus) -> tuple[str, ...]:
        """The fields ``corpus``'s form has: the drop and tolerance of its protocol only."""
        fields: tuple[str, ...] = ControlSettingsForm.Meta.fields
        kept = ESA_FIELDS if corpus.scores_esa else MQM_FIELDS if corpus.span_taxonomy else ()
        return tuple(f for f in fields if f not in ESA_FIELDS + MQM_FIELDS or f in kept)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        kept = self.fields_of(self.instance)
        for name in list(self.fields):
            if name not in kept:
                del self.fields[name]
        # The inputs' min and max (the model's validators do the refusing).
        ranges: dict[str, tuple[float, float]] = {
            "control_rate": (CONTROL_RATE_MIN, CONTROL_RATE_MAX),
            "control_pass_threshold": (0, 100),
            "control_esa_drop": (1, ESA_MAX),
            "control_esa_tolerance": (0, ESA_MAX),
            "control_mqm_drop": (CONTROL_MQM_DROP_MIN, CONTROL_MQM_MAX),
            "control_mqm_tolerance": (0, CONTROL_MQM_MAX),
        }
        for name, (low, high) in ranges.items():
            if name not in self.fields:
                continue
            field = self.fields[name]
            if not isinstance(field, forms.IntegerField | forms.FloatField):
                raise TypeError(f"{name} is not a number field")
            limits: Any = field  # the stubs type a FloatField's limits as an int's
            limits.min_value, limits.max_value = low, high
            field.widget.attrs.update(min=low, max=high)
        for name in MQM_FIELDS:
            if name in self.fields:
                self.fields[name].widget.attrs["step"] = "any"
