"""The judge's keys as the page shows them and as its script reads them, both from the one
table of :mod:`annotation.judging.keys`: ``{% key "undo" %}`` draws a binding's key
(``{% key "undo" 1 %}`` its second one) as key caps, ``{% judge_keys ier %}`` writes
the table for ``static/js/judge.js`` as a JSON block (data, not a script: the
Content-Security-Policy lets it be)."""

from __future__ import annotations

import functools

from django import template
from django.utils.html import format_html_join, json_script
from django.utils.safestring import SafeString

from annotation.judging.keys import binding, caps, script_table, span_script_tables

register = template.Library()


@register.simple_tag
@functools.cache  # the bindings are the code's: the same caps on every page drawn
def key(name: str, which: int = 0) -> SafeString:
    """Key ``which`` of the binding ``name``, as ``<kbd>`` caps joined by "+"."""
    pressed = caps(binding(name).keys[which])
    return format_html_join("+", "<kbd>{}</kbd>", ((cap,) for cap in pressed))


@register.simple_tag
def judge_keys(ier: bool) -> SafeString:
    """The key table for the page's script (IER's keys where the corpus has IER on)."""
    return json_script(script_table(ier=ier), "judge-keys")


@register.simple_tag
def span_page_keys() -> SafeString:
    """The ESA / MQM page's key tables: ``judge-keys`` for ``static/js/judge.js`` (the
    actions it shares with the aWER page) and ``span-keys`` for ``static/js/esa.js``."""
    shared, own = span_script_tables()
    return json_script(shared, "judge-keys") + json_script(own, "span-keys")
