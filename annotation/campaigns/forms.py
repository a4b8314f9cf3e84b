"""The campaign pages' forms: input validation only; :mod:`annotation.campaigns.judges`
does the work. A value a form refuses comes back on the page with its field and reason,
status 400."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.db.models import Q

from annotation.campaigns.judges import ERR_USERNAME_TAKEN, username_taken
from annotation.limits import EVALUATOR_MAX_LENGTH
from annotation.models import Corpus, Judgment, User


class JudgeCreateForm(forms.Form):
    username = forms.CharField(
        max_length=EVALUATOR_MAX_LENGTH,
        validators=[UnicodeUsernameValidator()],
        help_text="Letters, digits and @ . + - _ only.",
    )
    corpora = forms.ModelMultipleChoiceField(
        queryset=Corpus.objects.all(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Assign to",
    )

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        if username_taken(username):
            raise forms.ValidationError(ERR_USERNAME_TAKEN.format(username=username))
        return username


class AssignForm(forms.Form):
    judges = forms.ModelMultipleChoiceField(
        queryset=User.objects.none(),
        widget=forms.SelectMultiple(attrs={"size": 6}),
        help_text="Judge accounts not yet assigned to this corpus.",
    )

    def __init__(self, *args: Any, corpus: Corpus, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["judges"].queryset = (  # type: ignore[attr-defined]
            User.objects.judges().exclude(assigned_corpora=corpus).order_by("username")
        )


class UnassignForm(forms.Form):
    judge = forms.ModelChoiceField(queryset=User.objects.none())

    def __init__(self, *args: Any, corpus: Corpus, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["judge"].queryset = corpus.judges.all()  # type: ignore[attr-defined]


#: The choices of "judges see live figures": unset follows the corpus's blindness.
FIGURES_CHOICES = [
    ("", "Auto: hidden when blind, shown when named"),
    ("true", "Shown"),
    ("false", "Hidden"),
]


class CorpusSettingsForm(forms.ModelForm[Corpus]):
    judges_see_figures = forms.NullBooleanField(
        label="Judges see live figures",
        required=False,
        widget=forms.Select(choices=FIGURES_CHOICES),
        help_text=(
            "The system's running aWER, BLEU, … over the judge's judgments: they tell a "
            "judge which blind system is good. The candidate's own aWER is always shown."
        ),
    )

    class Meta:
        model = Corpus
        fields = ["blind", "share_new_refs", "ier_enabled", "judges_see_figures", "leads"]
        labels = {
            "blind": "Blind",
            "share_new_refs": "Share new references",
            "ier_enabled": "IER (information items)",
            "leads": "Leads",
        }
        widgets = {"leads": forms.CheckboxSelectMultiple}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["leads"].queryset = (  # type: ignore[attr-defined]
            User.objects.leads().order_by("username")
        )

    def save_settings(self) -> Corpus:
        """Store the settings and the leads, and nothing else of the row: it was read
        before, and saved whole it would write back a judgments stamp that a judge's
        click has moved meanwhile (and the dashboard would show stale figures)."""
        corpus: Corpus = self.save(commit=False)
        corpus.save(update_fields=["blind", "share_new_refs", "ier_enabled", "judges_see_figures"])
        self.save_m2m()
        return corpus


class EvaluatorForm(forms.Form):
    """One of the corpus's evaluators (assigned or with judgments in it): whom to leave
    out of the figures, count again, set aside or discard. ``name`` is the judge's name
    typed to confirm a discard."""

    judge = forms.ModelChoiceField(queryset=User.objects.none())
    name = forms.CharField(required=False, strip=False, label="Type the judge's name")

    def __init__(self, *args: Any, corpus: Corpus, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        judged = Judgment.objects.of_corpus(corpus.pk).values("evaluator_id")
        self.fields["judge"].queryset = User.objects.filter(  # type: ignore[attr-defined]
            Q(assigned_corpora=corpus) | Q(pk__in=judged)
        ).distinct()
