"""What a corpus's control items come to, for the lead's pages
(:func:`annotation.controls.runs.controls_summary`)."""

from __future__ import annotations

from django import template

from annotation.controls.runs import controls_summary

register = template.Library()

register.filter("controls_summary", controls_summary)
