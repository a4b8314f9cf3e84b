"""The campaign pages' forms: input validation only; :mod:`annotation.campaigns.judges`
does the work. A value a form refuses comes back on the page with its field and reason,
status 400."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from django import forms
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.db import transaction
from django.db.models import Q

from annotation.adaptive.focus import pair_key
from annotation.campaigns.judges import ERR_USERNAME_TAKEN, username_taken
from annotation.campaigns.links import (
    ERR_NO_ANNOTATOR,
    LINK_DAYS_DEFAULT,
    LINK_DAYS_MAX,
    campaign_annotators,
)
from annotation.campaigns.roster import ERR_TOO_BIG, ROSTER_MAX_BYTES, RosterRefused, roster_read
from annotation.campaigns.rules import FIELDS, Rules
from annotation.changes import judgments_changed
from annotation.fields import writable_name
from annotation.limits import EVALUATOR_MAX_LENGTH, NAME_MAX_LENGTH
from annotation.models import Campaign, Corpus, Judgment, Protocol, User
from annotation.sidebyside.campaign import (
    OFF_CHOICE,
    campaign_side_by_side_off,
    campaign_side_by_side_set,
)
from annotation.under_spans import checked_taxonomy
from metrics.json_out import json_dumps
from metrics.pairing import MAX_PER_SCREEN, MIN_PER_SCREEN


def corpora_to_assign() -> forms.ModelMultipleChoiceField[Corpus]:
    """The corpora new judge accounts are assigned to (any, or none)."""
    return forms.ModelMultipleChoiceField(
        queryset=Corpus.objects.all(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Assign to",
    )


class JudgeCreateForm(forms.Form):
    username = forms.CharField(
        max_length=EVALUATOR_MAX_LENGTH,
        validators=[UnicodeUsernameValidator()],
        help_text="Letters, digits and @ . + - _ only.",
    )
    corpora = corpora_to_assign()

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


#: A corpus's protocol stays while it has judgments: they were made under it.
ERR_PROTOCOL_JUDGED = (
    "the corpus has judgments made under {protocol}: its protocol cannot change "
    "(import it again with another protocol)"
)


def checked_protocol(corpus: Corpus, protocol: str) -> str:
    """The protocol (none given: the corpus's), unchanged while the corpus has judgments
    (of any state: a judge half-way through an item judges it under the protocol it
    opened with, and its spans are that protocol's); the corpus page's and the admin's
    forms both ask it."""
    protocol = protocol or corpus.protocol
    if (
        corpus.pk is not None
        and protocol != corpus.protocol
        and Judgment.objects.of_corpus(corpus.pk).exists()
    ):
        raise forms.ValidationError(
            ERR_PROTOCOL_JUDGED.format(protocol=corpus.get_protocol_display())
        )
    return protocol


class TaxonomyField(forms.JSONField):
    """The MQM taxonomy as JSON, one category a line: a lead reads and edits it in the
    page's text box (Django's field writes it on one line)."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, forms.fields.InvalidJSONInput):
            return value
        return json_dumps(value, indent=1)


class CorpusSettingsForm(forms.ModelForm[Corpus]):
    # Not required, as a form posted without them (a script written before protocols)
    # leaves the corpus's as they are.
    protocol = forms.ChoiceField(
        choices=Protocol.choices,
        required=False,
        help_text=Corpus._meta.get_field("protocol").help_text,
    )
    mqm_taxonomy = TaxonomyField(
        required=False,
        label="MQM taxonomy and weights",
        widget=forms.Textarea(attrs={"rows": 12, "cols": 70, "spellcheck": "false"}),
        help_text=Corpus._meta.get_field("mqm_taxonomy").help_text,
    )
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
        fields = [
            "protocol",
            "mqm_taxonomy",
            "blind",
            "share_new_refs",
            "ier_enabled",
            "judges_see_figures",
            "leads",
        ]
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

    def clean_protocol(self) -> str:
        return checked_protocol(self.instance, str(self.cleaned_data["protocol"] or ""))

    def clean_mqm_taxonomy(self) -> Any:
        """The taxonomy typed, or the corpus's own where none was sent; the model's
        validator reads it (:func:`~annotation.models.corpus.validate_mqm_taxonomy`).
        Refused if it drops a category the corpus's spans name
        (:mod:`annotation.under_spans`)."""
        taxonomy = self.cleaned_data["mqm_taxonomy"]
        if taxonomy is None:
            return self.instance.mqm_taxonomy
        return checked_taxonomy(self.instance, taxonomy)

    def save_settings(self) -> Corpus:
        """Store the settings and the leads, and nothing else of the row: it was read
        before, and saved whole it would write back a judgments stamp that a judge's
        click has moved meanwhile (and the dashboard would show stale figures)."""
        corpus: Corpus = self.save(commit=False)
        with transaction.atomic():
            corpus.save(update_fields=[name for name in self.Meta.fields if name != "leads"])
            self.save_m2m()
            if self.initial.get("mqm_taxonomy") != corpus.mqm_taxonomy:
                judgments_changed(corpus.pk)  # an MQM corpus's figures weigh by it
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


class BulkJudgesForm(forms.Form):
    """A list of judge accounts to create at once (:mod:`annotation.campaigns.roster`):
    pasted, or a file. Every problem of the list comes back on its field with its line;
    ``entries`` holds the accounts once the list is accepted whole."""

    accounts = forms.CharField(
        label="Accounts, one a line",
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 6, "cols": 40, "spellcheck": "false"}),
        help_text=(
            "A username a line, optionally an email after a comma (username,email); "
            "a first line “username,email” is skipped."
        ),
    )
    file = forms.FileField(
        label="Or a CSV file",
        required=False,
        help_text="UTF-8; the same columns, separated by commas, semicolons or tabs.",
    )
    corpora = corpora_to_assign()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Its fields' ids apart from the one-judge form's, on the same page.
        kwargs.setdefault("auto_id", "id_bulk_%s")
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        text, upload = data.get("accounts") or "", data.get("file")
        if upload is not None and text.strip():
            self.add_error("file", "paste a list or upload a file, not both")
            return data
        field = "file" if upload is not None else "accounts"
        if upload is not None and upload.size is not None and upload.size > ROSTER_MAX_BYTES:
            self.add_error(field, ERR_TOO_BIG.format(size=upload.size, limit=ROSTER_MAX_BYTES))
            return data
        try:
            data["entries"] = roster_read(upload.read() if upload is not None else text)
        except RosterRefused as refused:
            for problem in refused.shown():
                self.add_error(field, problem)
        return data


class LinksCreateForm(forms.Form):
    """Links for chosen annotators of a campaign, or all of them, and how long they open."""

    annotators = forms.ModelMultipleChoiceField(
        queryset=User.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Annotators",
    )
    everyone = forms.BooleanField(required=False, label="Every annotator of the campaign")
    days = forms.IntegerField(
        label="Opens for (days)",
        min_value=1,
        max_value=LINK_DAYS_MAX,
        initial=LINK_DAYS_DEFAULT,
        help_text=f"From now; at most {LINK_DAYS_MAX}.",
    )

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["annotators"].queryset = campaign_annotators(  # type: ignore[attr-defined]
            campaign
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chosen = list(data.get("annotators") or [])
        if data.get("everyone"):
            chosen = list(self.fields["annotators"].queryset)  # type: ignore[attr-defined]
        if not chosen and "annotators" not in self.errors:
            self.add_error("annotators", ERR_NO_ANNOTATOR)
        data["users"] = chosen
        return data


#: The choices of "annotators per item": empty keeps every annotator on every item.
JUDGES_PER_ITEM_CHOICES = [
    ("", "Every annotator judges every item of their corpora"),
    ("1", "1 (work split; the overlap share judged by 2)"),
    ("2", "2"),
    ("3", "3"),
]


ERR_ADAPTIVE_NEEDS_BATCHES = (
    "Adaptive dealing deals batches: choose how many annotators judge each item first"
)


class CampaignRulesForm(forms.ModelForm[Campaign]):
    """The campaign's rules (:mod:`annotation.campaigns.rules`), and a quota field per
    annotator of the campaign (``quota_<user id>``: empty takes the campaign's)."""

    judges_per_item = forms.TypedChoiceField(
        label="Annotators per item",
        choices=JUDGES_PER_ITEM_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        help_text=Campaign._meta.get_field("judges_per_item").help_text,
    )

    class Meta:
        model = Campaign
        fields = list(FIELDS)
        labels = {
            "overlap_percent": "Overlap (%)",
            "quota": "Batches per annotator",
            "adaptive": "Adaptive dealing",
            "warm_up_percent": "Warm-up (%)",
            "confidence": "Confidence (%)",
        }

    def __init__(
        self,
        *args: Any,
        annotators: list[User],
        quotas: Mapping[int, int | None] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.annotators = annotators
        for name in ("warm_up_percent", "confidence"):  # empty: the campaign's as it is
            self.fields[name].required = False
        own = quotas or {}
        for user in annotators:
            self.fields[quota_field(user)] = forms.IntegerField(
                label=user.username, required=False, min_value=0, initial=own.get(user.pk)
            )

    def clean(self) -> dict[str, Any]:
        """Adaptive dealing deals batches: it needs the work split (module's rule, and
        the database's ``campaign_adaptive_needs_batches``)."""
        cleaned = super().clean() or {}
        for name in ("warm_up_percent", "confidence"):
            if cleaned.get(name) in (None, ""):
                cleaned[name] = getattr(self.instance, name)
        if cleaned.get("adaptive") and cleaned.get("judges_per_item") is None:
            self.add_error("adaptive", ERR_ADAPTIVE_NEEDS_BATCHES)
        return cleaned

    def rule_fields(self) -> list[forms.BoundField]:
        """The campaign's rules' fields (not the annotators' quotas)."""
        return [self[name] for name in FIELDS]

    def quota_fields(self) -> list[tuple[User, forms.BoundField]]:
        """Each annotator with their quota's field, for the page's table."""
        return [(user, self[quota_field(user)]) for user in self.annotators]

    def rules(self) -> Rules:
        return Rules(**{name: self.cleaned_data[name] for name in FIELDS})

    def quotas(self) -> dict[int, int | None]:
        return {user.pk: self.cleaned_data[quota_field(user)] for user in self.annotators}


def quota_field(user: User) -> str:
    return f"quota_{user.pk}"


class CampaignNameForm(forms.Form):
    """A new campaign's name, or a campaign's new one (unique:
    :func:`~annotation.campaigns.membership.campaign_create` says when it is taken)."""

    name = forms.CharField(max_length=NAME_MAX_LENGTH, label="Campaign name")

    def clean_name(self) -> str:
        return writable_name(self.cleaned_data["name"])


class CorpusLabel(forms.ModelChoiceField):  # type: ignore[type-arg]
    """A corpus named with the campaign it is in now."""

    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.name} (now in {obj.campaign.name})"


class CorpusIntoCampaignForm(forms.Form):
    """A corpus of another campaign to move into this one
    (:func:`~annotation.campaigns.membership.corpus_move` refuses with the reason)."""

    corpus = CorpusLabel(queryset=Corpus.objects.none(), label="Corpus")

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["corpus"].queryset = (  # type: ignore[attr-defined]
            Corpus.objects.exclude(campaign=campaign).select_related("campaign").order_by("name")
        )


def _systems_or_off(value: str) -> int | None:
    """The campaign form's systems a screen, or None for off."""
    return None if value == OFF_CHOICE else int(value)


class CampaignSideBySideForm(forms.Form):
    """The campaign's side-by-side setting (:mod:`annotation.sidebyside.campaign`):
    systems a screen and whether the preference is asked, as a corpus's own panel sets
    them. Its fields are prefixed (``sbs-per_screen``), apart from the page's others."""

    prefix = "sbs"
    per_screen = forms.TypedChoiceField(
        choices=[
            *((n, str(n)) for n in range(MIN_PER_SCREEN, MAX_PER_SCREEN + 1)),
            (OFF_CHOICE, "Off: one at a time"),
        ],
        coerce=_systems_or_off,
        label="Systems a screen",
        help_text="Every corpus of the campaign whose protocol is judged side by side "
        "shows this many systems' candidates of a source on one screen, unless it has its "
        "own setting. Off: every corpus that follows the campaign's setting is judged one "
        "candidate a page again; what was judged side by side is kept.",
    )
    asks_preference = forms.BooleanField(
        required=False, initial=True, label="Ask which is better (of 3 or 4: the best)"
    )

    @classmethod
    def of(cls, campaign: Campaign) -> CampaignSideBySideForm:
        """The form showing ``campaign``'s setting as stored."""
        per_screen = campaign.side_by_side_per_screen or MIN_PER_SCREEN
        initial = {"per_screen": per_screen}
        initial["asks_preference"] = campaign.side_by_side_asks_preference
        return cls(initial=initial)

    def save_setting(self, campaign: Campaign) -> int:
        """The valid form's setting saved on ``campaign`` and its corpora
        (:func:`~annotation.sidebyside.campaign.campaign_side_by_side_set`, which may
        refuse it: :class:`~annotation.sidebyside.queue.SideBySideRefused`), or the
        campaign's setting turned off (:func:`~annotation.sidebyside.campaign.
        campaign_side_by_side_off`, never refused)."""
        if self.cleaned_data["per_screen"] is None:
            return campaign_side_by_side_off(campaign=campaign)
        return campaign_side_by_side_set(
            campaign=campaign,
            per_screen=self.cleaned_data["per_screen"],
            asks_preference=self.cleaned_data["asks_preference"],
        )


class PairsOfInterestForm(forms.Form):
    """The pairs of systems a lead cares about in a corpus dealt adaptively
    (:mod:`annotation.adaptive.focus`): any of its pairs, written ``first|second``;
    none: every pair."""

    pair = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Pairs you care about",
        help_text="The next rounds favour the open ones among these; none ticked: every pair.",
    )

    def __init__(self, *args: Any, pairs: Sequence[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = cast(forms.MultipleChoiceField, self.fields["pair"])
        field.choices = [(pair_key(p), f"{p[0]} – {p[1]}") for p in pairs]
        self.by_key = {pair_key(p): p for p in pairs}

    def chosen(self) -> list[tuple[str, str]]:
        """The pairs ticked (the form is valid)."""
        return [self.by_key[k] for k in self.cleaned_data["pair"]]
