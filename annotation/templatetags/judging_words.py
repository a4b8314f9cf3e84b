"""The judge's page's two lists of words, drawn in Python: the candidate's words with
their edit operations, and the new reference's words; and the ESA / MQM page's
candidate cut into pieces (``templates/judging/_spans.html``). They are the page's longest loops
(a word is a dozen template nodes), drawn on every click; the markup is exactly the one
the template drew (``templates/judging/_judge.html`` calls these tags). And the
attributes that mark a text of the corpus with its language and direction."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from annotation.spans import MAJOR

if TYPE_CHECKING:
    from annotation.judging.esa_page import Piece
    from annotation.judging.page import ShownOp
    from annotation.judging.pool import PoolRef
    from annotation.text import TextLanguage

register = template.Library()

#: What follows each word in the template's loops (its line break and indentation).
BETWEEN = "\n      "


@register.simple_tag
def candidate_words(
    ops: Sequence[ShownOp], readonly: bool, severity_form: str = "severity-form"
) -> SafeString:
    """The candidate's words: a matched word as text, any other operation as its button
    (a click accepts the candidate's version there) and, for the judge, its severity
    toggle (:mod:`annotation.spans`), a button of the form ``severity_form`` (a
    side-by-side panel's own)."""
    out = []
    for o in ops:
        if o.op == "match":
            out.append(f'<span class="w">{escape(o.hyp_word)}</span>{BETWEEN}')
            continue
        token, kind, major = escape(o.token), escape(o.op), o.severity == MAJOR
        ref_word = "" if o.ref_word is None else f' data-ref-word="{escape(o.ref_word)}"'
        title = escape(o.title) + (" Marked as a major error." if major else "")
        button = (
            f'<button type="submit" name="op" value="{token}" class="op op-{kind}" '
            f'data-op="{kind}"{ref_word} data-action="op" title="{title}" '
            f'data-inline="{escape(o.inline)}" data-severity="{escape(o.severity)}"'
            f"{' disabled' if readonly else ''}>{escape(o.text)}</button>"
        )
        toggle = ""
        if not readonly:
            label = "minor error" if major else "major error"
            hint = "Make this a minor error again" if major else "Make this a major error"
            toggle = (
                f'<button type="submit" form="{escape(severity_form)}" name="op" value="{token}" '
                f'class="severity-toggle" tabindex="-1" aria-label="{label}" '
                f'title="{hint} (m)"></button>'
            )
        out.append(f'<span class="mark">{button}{toggle}</span>{BETWEEN}')
    return mark_safe("".join(out))  # noqa: S308 (every value escaped above)


@register.simple_tag
def candidate_pieces(pieces: Sequence[Piece]) -> SafeString:
    """The ESA / MQM page's candidate, piece by piece (:class:`~annotation.judging.
    esa_page.Piece`): its characters and word number, which the page's script reads, and
    the class of the severest span over it."""
    out = []
    for p in pieces:
        severity = f" err-{escape(p.severity)}" if p.severity else ""
        word = "" if p.word is None else f' data-word="{p.word}"'
        out.append(
            f'<span class="piece{severity}" data-start="{p.start}" data-end="{p.end}"{word}>'
            f"{escape(p.text)}</span>"
        )
    return mark_safe("".join(out))  # noqa: S308 (every text escaped)


@register.simple_tag
def category_options(categories: Sequence[str], chosen: str) -> SafeString:
    """An MQM span's category menu: the corpus's taxonomy, the span's own selected."""
    return _options(((c, c) for c in categories), chosen)


def _options(choices: Iterable[tuple[str, str]], chosen: str) -> SafeString:
    """A menu's options, (value, label) each, the one whose value is ``chosen`` selected."""
    return mark_safe(  # noqa: S308 (every value and label escaped)
        "".join(
            f'<option value="{escape(v)}"{" selected" if v == chosen else ""}>'
            f"{escape(label)}</option>"
            for v, label in choices
        )
    )


@register.simple_tag
def new_ref_words(words: Sequence[str]) -> SafeString:
    """The new reference's words, each a link that opens its editor (``?edit=N``)."""
    return mark_safe(  # noqa: S308 (every word escaped)
        "".join(
            f'<a class="nr-word" href="?edit={k}" data-action="edit-word" data-pos="{k}">'
            f"{escape(w)}</a>{BETWEEN}"
            for k, w in enumerate(words)
        )
    )


@register.simple_tag
def language_attrs(language: TextLanguage) -> SafeString:
    """`` dir="…" lang="…"`` for a text (or a field holding one) of the corpus's side
    ``language`` (:func:`annotation.text.corpus_languages`); no ``lang`` where the corpus
    names none."""
    lang = f' lang="{escape(language.lang)}"' if language.lang else ""
    return mark_safe(f' dir="{escape(language.dir)}"{lang}')  # noqa: S308 (escaped)


@register.simple_tag
def sser_buttons(scale: Sequence[dict[str, Any]], readonly: bool) -> SafeString:
    """The SSER scale's buttons (:func:`annotation.judging.page.judging_context`'s
    ``sser_scale``), the pressed one marked."""
    out, disabled = [], " disabled" if readonly else ""
    for s in scale:
        value, label, pressed = s["value"], escape(s["label"]), s["pressed"]
        title = f' title="{value}: {label}"' if label else ""
        small = f"<small>{label}</small>" if label else ""
        out.append(
            f'\n        <button type="submit" name="sser" value="{value}" data-sser="{value}" '
            f'data-action="sser" class="sser{" pressed" if pressed else ""}" '
            f'aria-pressed="{"true" if pressed else "false"}"{title}{disabled}>'
            f"{value}{small}</button>"
        )
    return mark_safe("".join(out))  # noqa: S308 (every label escaped)


@register.simple_tag
def flag_options(flags: Sequence[tuple[str, str]], chosen: str) -> SafeString:
    """The note's flag menu: every flag (value, label), the judgment's own selected."""
    return _options(flags, chosen)


@register.simple_tag
def pool_entries(
    pool: Sequence[PoolRef], current: Sequence[str], language: TextLanguage, readonly: bool
) -> SafeString:
    """The nearest references of the pool, each a button that makes it the new
    reference, the one equal to the new reference (``current``, its words) marked."""
    if not pool:
        return mark_safe('\n        <li class="pool-empty">This sentence has no reference.</li>')
    attrs, out = language_attrs(language), []
    for k, ref in enumerate(pool, start=1):
        text, here = escape(ref.text), ref.words == tuple(current)
        out.append(
            f'\n        <li><button type="submit" name="text" value="{text}" '
            f'class="pool-ref{" current" if here else ""}"{attrs} data-action="use-ref" '
            f'data-pool="{k}"{" disabled" if readonly else ""}>{text}</button>\n'
            f'          <span class="pool-meta">{escape(ref.kind)} · {ref.distance} '
            f"edit{'' if ref.distance == 1 else 's'}{' · current' if here else ''}</span></li>"
        )
    return mark_safe("".join(out))  # noqa: S308 (every text escaped)
