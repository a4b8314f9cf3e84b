"""The judge's keys, in one table: every key the page's script obeys, what it does, and
how the page shows it.

Judges work for hours, so every action of the judge's page has a key and the page says
which (on the button, and in the keys panel, ``templates/judging/_judge_keys.html``).
Both read :data:`BINDINGS` through the template tags of
:mod:`annotation.templatetags.judging_keys`, and so does the script
(``static/js/judge.js``), from a JSON block of the page (:func:`script_table`): a key
is bound in one place, and what the page says it does is what it does.

A key is named as the script names a keydown: its character (``u``, ``=``, ``I`` for
Shift+I), its name (``ArrowRight``, ``Escape``), ``Ctrl+`` and the lowercase character
with Ctrl (``Ctrl+z``, ``Ctrl+Shift+z``, ``Ctrl+enter``), or the key's place where the
character differs by layout (``Digit1``: the digit row's 1, whatever it types: QWERTY's
Shift+1 "!", AZERTY's "&"). The script looks the character up first, then the place, so
digits follow what the keyboard types (AZERTY's Shift+3 scores 3).

What a key does (``does``) is the selector of the button it presses, or one of the
script's commands: ``op:next``, ``op:previous``, ``op:accept``, ``op:severity`` (the
marked words of the candidate), ``field:<id>`` (the focus into a field: what is typed
next goes there), ``item:next``, ``item:previous`` and ``mark:<label>`` (IER's items).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: Where a binding holds: on the whole ``page``; on it only where IER is on (``ier``);
#: or, before the page's, while the focus is on one of IER's items (``item``: m marks
#: the item there, not the marked word). The ESA / MQM page obeys the bindings of
#: :data:`SHARED` and of scope ``spans-page`` (``static/js/judge.js``), and those of
#: scope ``spans`` (its own script, ``static/js/esa.js``).
Scope = Literal["page", "ier", "item", "spans", "spans-page"]


@dataclass(frozen=True)
class Binding:
    """One thing the keyboard does on the judge's page: its name (templates ask for its
    keys by it), its keys (module docstring), and what it does."""

    name: str
    keys: tuple[str, ...]
    does: str
    scope: Scope = "page"


BINDINGS: tuple[Binding, ...] = (
    Binding("next-op", ("ArrowRight",), "op:next"),
    Binding("previous-op", ("ArrowLeft",), "op:previous"),
    Binding("accept-op", ("a",), "op:accept"),
    Binding("severity", ("m",), "op:severity"),
    *(Binding(f"sser-{n}", (str(n),), f'[data-sser="{n}"]') for n in range(10)),
    Binding("sser-10", ("=",), '[data-sser="10"]'),
    Binding("undo", ("u", "Ctrl+z"), "#undo"),
    Binding("redo", ("r", "Ctrl+y", "Ctrl+Shift+z"), "#redo"),
    Binding("accept-next", ("n", "Ctrl+enter"), "#accept-next"),
    Binding("confirm-reuse", ("c",), "#confirm-reuse"),
    Binding("previous", ("p",), "#previous"),
    *(Binding(f"pool-{n}", (f"Digit{n}",), f'[data-pool="{n}"]') for n in range(1, 5)),
    Binding("as-is", ("o",), "#accept-as-is"),
    Binding("edit-text", ("e",), "field:new-ref-text"),
    Binding("write-note", ("f",), "field:note-text"),
    Binding("close", ("Escape",), "#cancel-edit"),
    Binding("next-item", ("i",), "item:next", "ier"),
    Binding("previous-item", ("I",), "item:previous", "ier"),
    *(
        Binding(f"mark-{label}", (key,), f"mark:{label}", "item")
        for key, label in (("k", "ok"), ("y", "syntax"), ("m", "meaning"), ("x", "other"))
    ),
)

#: The ESA / MQM page's keys (the commands of ``static/js/esa.js``: ``cursor:…`` moves
#: the word cursor or extends the selection, ``mark:<severity>`` marks the selection,
#: ``span:remove`` removes the span at the cursor, ``focus:<id>``); its others are the
#: aWER page's (:data:`SHARED`) and ``score``.
SPAN_BINDINGS: tuple[Binding, ...] = (
    Binding("cursor-next", ("ArrowRight",), "cursor:next", "spans"),
    Binding("cursor-previous", ("ArrowLeft",), "cursor:previous", "spans"),
    Binding("extend-next", ("Shift+ArrowRight",), "cursor:extend-next", "spans"),
    Binding("extend-previous", ("Shift+ArrowLeft",), "cursor:extend-previous", "spans"),
    Binding("cursor-missing", ("i",), "cursor:missing", "spans"),
    Binding("mark-minor", ("1", "Digit1"), "mark:minor", "spans"),
    Binding("mark-major", ("2", "Digit2"), "mark:major", "spans"),
    Binding("remove-span", ("Delete", "Backspace"), "span:remove", "spans"),
    Binding("category", ("c",), "focus:mqm-category", "spans"),
    Binding("score", ("s",), "field:esa-score-number", "spans-page"),
)

#: The aWER page's bindings the ESA / MQM page obeys as they are.
SHARED = ("undo", "redo", "accept-next", "previous")

_BY_NAME = {binding.name: binding for binding in (*BINDINGS, *SPAN_BINDINGS)}

#: How a key's name reads on a key cap, where it does not read as itself.
_CAPS = {
    "ArrowRight": "→",
    "ArrowLeft": "←",
    "Escape": "Esc",
    "enter": "Enter",
    "Delete": "Del",
    "Backspace": "⌫",
}


def binding(name: str) -> Binding:
    """The binding called ``name``; a name no binding has is a mistake in a template."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"no key binding is called {name!r}") from None


def caps(key: str) -> list[str]:
    """The key caps a key's name is pressed with, as the page shows them:
    ``Ctrl+z`` → Ctrl, Z; ``Digit1`` → Shift, 1 (QWERTY's way to it); ``I`` → Shift, I."""
    *modifiers, last = key.split("+") if len(key) > 1 else [key]
    if last.startswith("Digit"):
        return [*modifiers, "Shift", last.removeprefix("Digit")]
    if len(last) == 1 and last.isupper():
        return [*modifiers, "Shift", last]
    if modifiers and len(last) == 1:
        return [*modifiers, last.upper()]
    return [*modifiers, _CAPS.get(last, last)]


def script_table(*, ier: bool) -> dict[str, dict[str, str]]:
    """What the page's script reads: for each scope it obeys (IER's only where IER is
    on), the action of each key."""
    scopes = ("page", "ier", "item") if ier else ("page",)
    table: dict[str, dict[str, str]] = {"page": {}, "item": {}}
    for b in BINDINGS:
        if b.scope in scopes:
            table["item" if b.scope == "item" else "page"].update(dict.fromkeys(b.keys, b.does))
    return table


def span_script_tables() -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    """What the ESA / MQM page's scripts read: ``judge.js``'s table (the aWER page's
    shape: :data:`SHARED` and scope ``spans-page``) and ``esa.js``'s (key → action)."""
    page: dict[str, str] = {}
    for b in (*BINDINGS, *SPAN_BINDINGS):
        if b.name in SHARED or b.scope == "spans-page":
            page.update(dict.fromkeys(b.keys, b.does))
    own = {k: b.does for b in SPAN_BINDINGS if b.scope == "spans" for k in b.keys}
    return {"page": page, "item": {}}, own
