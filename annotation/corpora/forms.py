"""The upload form: input validation only (size limit, reference names); the import
service, :func:`annotation.corpora.imports.corpus_import`, does the work."""

from __future__ import annotations

from django import forms
from django.conf import settings

from annotation.limits import NAME_MAX_LENGTH, non_xml_char_problem


class UploadForm(forms.Form):
    file = forms.FileField(label="evalTrans XML file")
    name = forms.CharField(
        max_length=NAME_MAX_LENGTH,
        required=False,
        help_text="Default: the file's <evalTrans name>, else its file name.",
    )
    references = forms.CharField(
        required=False,
        label="More reference translators",
        help_text="Comma-separated translator names to treat as references.",
    )

    def clean_file(self) -> object:
        upload = self.cleaned_data["file"]
        limit = settings.EVALTOOL_MAX_UPLOAD_BYTES
        if upload.size > limit:
            raise forms.ValidationError(
                f"{upload.name}: {upload.size:,} bytes is over the upload limit of {limit:,} bytes"
                " (use manage.py import_evaltrans for larger files)"
            )
        return upload

    def clean_name(self) -> str:
        """A name the export can write back (no character XML cannot hold)."""
        name: str = self.cleaned_data["name"]
        problem = non_xml_char_problem(name)
        if problem is not None:
            raise forms.ValidationError(f"the name: {problem}")
        return name

    def reference_names(self) -> list[str]:
        return [n.strip() for n in self.cleaned_data["references"].split(",") if n.strip()]
