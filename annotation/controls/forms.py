"""The lead's control-item settings of a corpus: input validation only (the ranges are
the model's validators, so the form, the command line and the database agree)."""

from __future__ import annotations

from django import forms

from annotation.models import Corpus


class ControlSettingsForm(forms.ModelForm):  # type: ignore[type-arg]
    """On or off, the rate (one control in every N items) and the pass threshold (%)."""

    class Meta:
        model = Corpus
        fields = ("controls_enabled", "control_rate", "control_pass_threshold")
