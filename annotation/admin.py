"""Everything registered in the Django admin, for leads who need to look under the hood.
Numbers are read as every form reads them, in the digits 0–9 (:mod:`annotation.fields`)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet

from annotation.fields import WHOLE_NUMBER_COLUMNS
from annotation.models import Corpus, Judgment, JudgmentEvent, Sentence, Target, Translator, User


@admin.register(User)
class EvaltoolUserAdmin(UserAdmin[User]):
    list_display = ("username", "role", "is_active", "is_staff", "last_login")
    list_filter = ("role", "is_active", "is_staff")
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("evaltool", {"fields": ("role", "must_change_password")}),
    )


@admin.register(Corpus)
class CorpusAdmin(admin.ModelAdmin[Corpus]):
    formfield_overrides = WHOLE_NUMBER_COLUMNS
    list_display = (
        "name",
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


@admin.register(Translator)
class TranslatorAdmin(admin.ModelAdmin[Translator]):
    formfield_overrides = WHOLE_NUMBER_COLUMNS
    list_display = ("name", "corpus", "role", "position")
    list_filter = ("role", "corpus")


@admin.register(Sentence)
class SentenceAdmin(admin.ModelAdmin[Sentence]):
    formfield_overrides = WHOLE_NUMBER_COLUMNS
    list_display = ("corpus", "position", "xml_id", "doc", "source")
    list_filter = ("corpus",)
    search_fields = ("source", "xml_id")


@admin.register(Target)
class TargetAdmin(admin.ModelAdmin[Target]):
    formfield_overrides = WHOLE_NUMBER_COLUMNS
    list_display = ("sentence", "translator", "ordinal", "text")
    list_select_related = ("sentence__corpus", "translator")
    raw_id_fields = ("sentence",)
    search_fields = ("text",)


@admin.register(Judgment)
class JudgmentAdmin(admin.ModelAdmin[Judgment]):
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

    # A change made here moves the corpus's judgments stamp as the judge's page does, so
    # the dashboard never shows figures of the judgment as it was.
    def save_model(self, request: Any, obj: Judgment, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        Corpus.objects.filter(pk=obj.target.sentence.corpus_id).stamp_judgments()

    def delete_model(self, request: Any, obj: Judgment) -> None:
        corpus_id = obj.target.sentence.corpus_id
        super().delete_model(request, obj)
        Corpus.objects.filter(pk=corpus_id).stamp_judgments()

    def delete_queryset(self, request: Any, queryset: QuerySet[Judgment]) -> None:
        corpus_ids = set(queryset.values_list("target__sentence__corpus_id", flat=True))
        super().delete_queryset(request, queryset)
        Corpus.objects.filter(pk__in=corpus_ids).stamp_judgments()


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
