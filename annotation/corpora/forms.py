"""The upload page's forms: input validation only (size limit, reference names, a corpus
the lead may see); the services do the work: :func:`annotation.corpora.imports.
corpus_import` for an evalTrans file, :func:`annotation.corpora.systems.corpus_add_system`
for a system's plain text, :func:`annotation.statistics.external_metric_import` for a
file of segment scores computed elsewhere (the corpus's imported-scores page)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.utils.html import format_html

from annotation.corpora.removal import ERR_ONLY_DELETE, RemovalRefused, confirmed
from annotation.fields import writable_name
from annotation.limits import NAME_MAX_LENGTH
from annotation.models import Campaign, Corpus, ExternalMetric, Protocol, User
from metrics.segment_scores import LAYOUTS, check_metric_name
from metrics.segment_scores import NAME_MAX_LENGTH as METRIC_NAME_MAX_LENGTH

#: The upload form's first protocol choice: the file's ``judgingProtocol`` (which an
#: export of an ESA or MQM corpus writes), aWER for a file that gives none.
AS_THE_FILE_SAYS = "As the file says (aWER + SSER if it says nothing)"


def within_upload_limit(upload: UploadedFile[bytes], command: str) -> UploadedFile[bytes]:
    """The upload, or its refusal if it is over the limit: the browser's uploads are held
    whole while they are read, so larger files go through ``command`` instead."""
    limit: int = settings.EVALTOOL_MAX_UPLOAD_BYTES
    if upload.size is not None and upload.size > limit:
        raise forms.ValidationError(
            f"{upload.name}: {upload.size:,} bytes is over the upload limit of {limit:,} bytes"
            f" (use manage.py {command} for larger files)"
        )
    return upload


class UploadForm(forms.Form):
    file = forms.FileField(label="evalTrans XML file")
    name = forms.CharField(
        max_length=NAME_MAX_LENGTH,
        required=False,
        # Django writes help texts unescaped: the element's name must be escaped here, or
        # the browser takes it for a tag and shows "the file's , else …".
        help_text=format_html(
            "Default: the {} attribute of the file's {} element, else its file name.",
            format_html("<code>{}</code>", "name"),
            format_html("<code>{}</code>", "<evalTrans>"),
        ),
    )
    references = forms.CharField(
        required=False,
        label="More reference translators",
        help_text="Comma-separated translator names to treat as references.",
    )
    assign = forms.BooleanField(
        required=False,
        label="Assign the file's evaluators as judges",
        help_text=(
            "Each gets this corpus's queue. Leave it off to re-import an export: its judges "
            "have done their work in the original."
        ),
    )

    campaign = forms.ModelChoiceField(
        queryset=Campaign.objects.order_by("name"),
        required=False,
        empty_label="A new campaign of its own",
        label="Campaign",
        help_text="The campaign the corpus joins; by default one of its own, named after it.",
    )
    # Not required: a form posted without it (a script written before protocols were
    # chosen) imports as the file says, aWER for every file written before protocols.
    protocol = forms.ChoiceField(
        choices=[("", AS_THE_FILE_SAYS), *Protocol.choices],
        initial="",
        required=False,
        label="Protocol",
        help_text=(
            "How its judges judge it; the corpus's page changes it until the first judgment. "
            "An export of an ESA or MQM corpus says its protocol and taxonomy; otherwise "
            "MQM's taxonomy and weights are WMT's until the corpus's page changes them."
        ),
    )

    def clean_file(self) -> UploadedFile[bytes]:
        return within_upload_limit(self.cleaned_data["file"], "import_evaltrans")

    def clean_name(self) -> str:
        return writable_name(self.cleaned_data["name"])

    def clean_protocol(self) -> str | None:
        return str(self.cleaned_data["protocol"]) or None

    def reference_names(self) -> list[str]:
        return [n.strip() for n in self.cleaned_data["references"].split(",") if n.strip()]


UNSEGMENTED_LABEL = (
    "Unsegmented: the file is one document (speech translation, long documents); "
    "it is re-segmented against the corpus's references"
)


class AddSystemForm(forms.Form):
    """A system's output for a corpus that exists, one candidate per line or one document.

    Prefixed (``system-``): it shares the upload page with :class:`UploadForm`, whose
    ``name`` and ``file`` fields would otherwise have the same ids."""

    prefix = "system"

    corpus = forms.ModelChoiceField(queryset=Corpus.objects.none())
    name = forms.CharField(max_length=NAME_MAX_LENGTH, label="System name")
    file = forms.FileField(
        label="Plain text file",
        help_text="UTF-8, one candidate per line in the corpus's sentence order.",
    )
    unsegmented = forms.BooleanField(required=False, label=UNSEGMENTED_LABEL)

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["corpus"].queryset = Corpus.objects.visible_to(user)  # type: ignore[attr-defined]

    def clean_file(self) -> UploadedFile[bytes]:
        return within_upload_limit(self.cleaned_data["file"], "import_text")


class RemoveForm(forms.Form):
    """Archive, restore or delete a corpus: the corpus's name typed to confirm a
    deletion (an archive is undone with one click, so it asks for nothing)."""

    ACTIONS = (("archive", "Archive"), ("restore", "Restore"), ("delete", "Delete for good"))

    action = forms.ChoiceField(choices=ACTIONS)
    name = forms.CharField(
        label="Type the corpus's name to delete it",
        required=False,
        max_length=NAME_MAX_LENGTH,
        strip=False,
    )

    def __init__(self, *args: Any, corpus: Corpus, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.corpus = corpus

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("action") == "delete":
            try:
                confirmed(self.corpus, data.get("name") or "")
            except RemovalRefused as refused:
                self.add_error("name", str(refused))
        elif data.get("action") in ("archive", "restore") and not self.corpus.ready:
            self.add_error("action", ERR_ONLY_DELETE)
        return data


#: Why a file of scores is missing or out of place (the scores form).
ERR_NO_SCORES_FILE = "A segment scores file is needed (or, in layout mtme, a .sys.score alone)."
ERR_SYS_LAYOUT = "A .sys.score goes with layout mtme (mt-metrics-eval's human scores)."

#: Which way an imported metric points, as the form asks it: no default, the lead says.
DIRECTIONS = (
    ("higher", "Higher is better (COMET, BLEURT, GEMBA)"),
    ("lower", "Lower is better (MetricX, error counts)"),
)


class ExternalScoresForm(forms.Form):
    """A file of segment scores computed elsewhere, to import as a named metric of a
    corpus (:func:`annotation.statistics.external_metric_import` reads and checks the
    file itself, and refuses it with its line and reason). Human scores (layout mtme)
    may come with their ``.sys.score`` (``sys``, as ``import_scores --sys``), or be that
    file alone (no segment file): the published system-level figures."""

    prefix = "scores"

    # an empty file is the reader's to refuse, with the words of every other refusal
    file = forms.FileField(
        label="Segment scores file",
        help_text="UTF-8, one score per line. Layout mtme: may be left out for a .sys.score alone.",
        allow_empty_file=True,
        required=False,
    )
    sys = forms.FileField(
        label="System-level scores file (mtme only)",
        help_text="mt-metrics-eval's .sys.score of the same human scores: checked against "
        "the segments' means, or alone the published figure of each system.",
        allow_empty_file=True,
        required=False,
    )
    layout = forms.ChoiceField(
        choices=[(key, f"{key}: {words}") for key, words in LAYOUTS.items()],
        initial="tsv",
        widget=forms.RadioSelect,
    )
    name = forms.CharField(
        max_length=METRIC_NAME_MAX_LENGTH,
        label="Metric name",
        help_text="e.g. COMET-22, xCOMET-XL, MetricX-23: a letter, then letters, digits, '.', "
        "'+' or '-'.",
    )
    direction = forms.ChoiceField(choices=DIRECTIONS, widget=forms.RadioSelect)
    description = forms.CharField(
        required=False,
        max_length=ExternalMetric._meta.get_field("description").max_length,
        help_text="What it is, for whoever reads the figures: model, version, reference used.",
    )
    replace = forms.BooleanField(
        required=False, label="Replace the imported metric of this name, if there is one"
    )

    def clean_file(self) -> UploadedFile[bytes] | None:
        found = self.cleaned_data["file"]
        return None if found is None else within_upload_limit(found, "import_scores")

    def clean_sys(self) -> UploadedFile[bytes] | None:
        found = self.cleaned_data["sys"]
        return None if found is None else within_upload_limit(found, "import_scores")

    def clean(self) -> dict[str, Any]:
        """A segment file, or with layout mtme a ``.sys.score`` (either or both)."""
        super().clean()
        data = self.cleaned_data
        if data.get("sys") is not None and data.get("layout") not in (None, "mtme"):
            self.add_error("sys", ERR_SYS_LAYOUT)
        elif data.get("file") is None and data.get("sys") is None and "file" not in self.errors:
            self.add_error("file", ERR_NO_SCORES_FILE)
        return data

    def clean_name(self) -> str:
        """A name a metric may have (the corpus's own names are the service's to check)."""
        name: str = self.cleaned_data["name"]
        try:
            check_metric_name(name)
        except ValueError as refused:
            raise forms.ValidationError(str(refused)) from None
        return name

    @property
    def higher_is_better(self) -> bool:
        return bool(self.cleaned_data["direction"] == "higher")


#: The layouts of judgments made elsewhere a corpus's page imports, and the command
#: that imports a file too large for the browser.
JUDGMENT_LAYOUTS = (
    ("appraise", "Appraise's ESA/DA CSV (no header; ESA or MQM corpus)"),
    ("mqm", "WMT's MQM TSV (header; error spans in <v>…</v>; MQM corpus)"),
)


class ImportedJudgmentsForm(forms.Form):
    """A file of judgments made in another tool, to import into the corpus (the services
    read and check the file, and refuse it with its line and reason)."""

    prefix = "judgments"

    file = forms.FileField(label="Judgments file", allow_empty_file=True)
    layout = forms.ChoiceField(choices=JUDGMENT_LAYOUTS, widget=forms.RadioSelect)

    def clean_file(self) -> UploadedFile[bytes]:
        layout = self.data.get(self.add_prefix("layout"), "appraise")
        return within_upload_limit(self.cleaned_data["file"], f"import_{layout}")
