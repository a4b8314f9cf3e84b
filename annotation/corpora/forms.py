"""The upload form: input validation only (size limit, reference names); the import
service, :func:`annotation.corpora.imports.corpus_import`, does the work."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.html import format_html

from annotation.limits import NAME_MAX_LENGTH, non_xml_char_problem


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
