"""Everything registered in the Django admin, for leads who need to look under the hood.
Numbers are read as every form reads them, in the digits 0–9 (:mod:`annotation.fields`).

A change made here that changes what a figure reads (a judgment, a judge with their
judgments, who counts, a text) says so as the app's own pages do
(:mod:`annotation.changes`), so no page shows figures of the rows as they were."""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import ValidationError
from django.db.models import Model, QuerySet
from django.forms import ModelForm

from annotation.campaigns.forms import checked_protocol
from annotation.changes import (
    candidates_changed,
    corpus_texts_changed,
    judgments_changed,
    who_counts_changed,
)
from annotation.fields import WHOLE_NUMBER_COLUMNS
from annotation.models import Corpus, Judgment, JudgmentEvent, Sentence, Target, Translator, User
from annotation.under_spans import checked_taxonomy, text_problem

M = TypeVar("M", bound=Model)


class ChangesFigures(admin.ModelAdmin[M]):
    """An admin whose saves and deletions change what figures read: after each, the
    corpora its rows belonged to, before and after (:attr:`corpus_of`, a lookup from the
    model to the corpus's primary key), are told to :meth:`changed`, in the same
    request."""

    corpus_of = "pk"
    #: Whether a save changes figures (a deletion always does).
    saves_change_figures = True

    def changed(self, corpus_ids: set[int], saved: M | None, form: ModelForm[M] | None) -> None:
        """Say what changed in ``corpus_ids``: ``saved`` with ``form``, or deleted rows."""
        raise NotImplementedError

    def _corpora(self, rows: QuerySet[M]) -> set[int]:
        found = rows.order_by().values_list(self.corpus_of, flat=True).distinct()
        return {pk for pk in found if pk is not None}

    def _corpora_of(self, obj: M) -> set[int]:
        return self._corpora(type(obj)._default_manager.filter(pk=obj.pk))

    def save_model(self, request: Any, obj: M, form: Any, change: bool) -> None:
        if not self.saves_change_figures:
            super().save_model(request, obj, form, change)
            return
        before = self._corpora_of(obj) if change else set()
        super().save_model(request, obj, form, change)
        self.changed(before | self._corpora_of(obj), obj, form)

    def delete_model(self, request: Any, obj: M) -> None:
        corpora = self._corpora_of(obj)
        super().delete_model(request, obj)
        self.changed(corpora, None, None)

    def delete_queryset(self, request: Any, queryset: QuerySet[M]) -> None:
        corpora = self._corpora(queryset)
        super().delete_queryset(request, queryset)
        self.changed(corpora, None, None)


@admin.register(User)
class EvaltoolUserAdmin(UserAdmin[User], ChangesFigures[User]):
    """A judge deleted here goes with their judgments."""

    list_display = ("username", "role", "is_active", "is_staff", "last_login")
    list_filter = ("role", "is_active", "is_staff")
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("evaltool", {"fields": ("role", "must_change_password")}),
    )
    corpus_of = "judgments__target__translator__corpus_id"
    saves_change_figures = False

    def changed(self, corpus_ids: set[int], saved: User | None, form: Any) -> None:
        judgments_changed(*corpus_ids)

    def save_model(self, request: Any, obj: User, form: Any, change: bool) -> None:
        """A judge renamed: the figures name the judges of their judgments."""
        super().save_model(request, obj, form, change)
        if change and "username" in form.changed_data:
            self.changed(self._corpora_of(obj), obj, form)


class CorpusAdminForm(ModelForm[Corpus]):
    """The protocol stays once judged, and the taxonomy keeps every category the
    corpus's spans name, as on the corpus page: else its export would meet judgments
    it cannot write."""

    def clean_protocol(self) -> str:
        return checked_protocol(self.instance, str(self.cleaned_data["protocol"]))

    def clean_mqm_taxonomy(self) -> object:
        return checked_taxonomy(self.instance, self.cleaned_data["mqm_taxonomy"])


class TargetAdminForm(ModelForm[Target]):
    """A candidate's text stays while error spans mark it (:mod:`annotation.corpora.
    under_spans`)."""

    def clean_text(self) -> str:
        text: str = self.cleaned_data["text"]
        if self.instance.pk is not None and text != self.instance.text:
            problem = text_problem([self.instance.pk])
            if problem is not None:
                raise ValidationError(problem, code="text_under_spans")
        return text


class RefusedIs400(admin.ModelAdmin[M]):
    """A change form sent back with its errors answers 400, as the app's own pages do,
    not the admin's 200."""

    def changeform_view(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().changeform_view(request, *args, **kwargs)
        context = getattr(response, "context_data", None) or {}
        if request.method == "POST" and context.get("errors"):
            response.status_code = 400
        return response


@admin.register(Corpus)
class CorpusAdmin(RefusedIs400[Corpus]):
    form = CorpusAdminForm
    formfield_overrides = WHOLE_NUMBER_COLUMNS
    list_display = (
        "name",
        "protocol",
        "ready",
        "blind",
        "judges_see_figures",
        "share_new_refs",
        "controls_enabled",
        "ier_enabled",
        "created_at",
    )
    list_filter = ("ready",)
    filter_horizontal = ("judges", "leads")
    search_fields = ("name",)

    def get_queryset(self, request: Any) -> QuerySet[Corpus]:
        """Unfinished imports too: one that was interrupted (its process killed) stays
        hidden everywhere else, and is deleted here."""
        return Corpus.all_objects.all()

    def save_related(self, request: Any, form: Any, formsets: Any, change: bool) -> None:
        """The form holds who is left out of the corpus's figures, and the MQM taxonomy
        an MQM corpus's figures weigh the spans by."""
        super().save_related(request, form, formsets, change)
        if change and "excluded_judges" in form.changed_data:
            who_counts_changed(form.instance.pk)
        if change and "mqm_taxonomy" in form.changed_data:
            judgments_changed(form.instance.pk)


class ChangesTexts(ChangesFigures[M]):
    """A translator, sentence or target changed or deleted here changes the texts of
    its corpus (and of the one it moved from)."""

    def changed(self, corpus_ids: set[int], saved: M | None, form: ModelForm[M] | None) -> None:
        corpus_texts_changed(*corpus_ids)


@admin.register(Translator)
class TranslatorAdmin(ChangesTexts[Translator]):
    formfield_overrides = WHOLE_NUMBER_COLUMNS
    list_display = ("name", "corpus", "role", "position")
    list_filter = ("role", "corpus")
    corpus_of = "corpus_id"


@admin.register(Sentence)
class SentenceAdmin(ChangesTexts[Sentence]):
    formfield_overrides = WHOLE_NUMBER_COLUMNS
    list_display = ("corpus", "position", "xml_id", "doc", "source")
    list_filter = ("corpus",)
    search_fields = ("source", "xml_id")
    corpus_of = "corpus_id"


@admin.register(Target)
class TargetAdmin(ChangesTexts[Target], RefusedIs400[Target]):
    """A system's candidate whose text alone changed is a changed candidate, as a word
    moved across a boundary is: the stored statistics are brought up to date by
    scoring it alone. Any other change is the corpus's texts'. Its text stays while
    error spans mark it (:class:`TargetAdminForm`)."""

    form = TargetAdminForm
    formfield_overrides = WHOLE_NUMBER_COLUMNS
    list_display = ("sentence", "translator", "ordinal", "text")
    list_select_related = ("sentence__corpus", "translator")
    raw_id_fields = ("sentence",)
    search_fields = ("text",)
    corpus_of = "translator__corpus_id"

    def changed(
        self, corpus_ids: set[int], saved: Target | None, form: ModelForm[Target] | None
    ) -> None:
        text_only = form is not None and form.changed_data == ["text"]
        if saved is not None and text_only and saved.translator.role == Translator.Role.SYSTEM:
            candidates_changed(saved.translator.corpus_id, [saved])
        else:
            corpus_texts_changed(*corpus_ids)


@admin.register(Judgment)
class JudgmentAdmin(ChangesFigures[Judgment]):
    formfield_overrides = WHOLE_NUMBER_COLUMNS
    list_display = (
        "target",
        "evaluator",
        "sser",
        "edits",
        "ref_length",
        "state",
        "control",
        "updated_at",
    )
    list_filter = ("state", "control", "evaluator")
    list_select_related = ("target__translator", "target__sentence__corpus", "evaluator")
    raw_id_fields = ("target",)
    corpus_of = "target__translator__corpus_id"

    def changed(
        self, corpus_ids: set[int], saved: Judgment | None, form: ModelForm[Judgment] | None
    ) -> None:
        judgments_changed(*corpus_ids)


@admin.register(JudgmentEvent)
class JudgmentEventAdmin(admin.ModelAdmin[JudgmentEvent]):
    """The judges' event log, read-only: it is the record of who did what and when."""

    list_display = ("created_at", "judgment", "actor", "kind", "status", "version")
    list_filter = ("kind", "status")
    list_select_related = ("judgment__target__translator", "actor")
    raw_id_fields = ("judgment",)
    readonly_fields = (
        "judgment",
        "actor",
        "created_at",
        "kind",
        "status",
        "before",
        "after",
        "detail",
        "version",
    )

    def has_add_permission(self, request: object) -> bool:
        return False
