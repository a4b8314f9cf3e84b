"""The keys of the side-by-side screen, in one table: rendered into the keys panel and,
as JSON, into the page for its script (``static/js/sidebyside.js``), so a binding is
written once. A key acts on the active panel (the one the mouse or ``[``/``]`` last
chose); the digits and arrows mean what they mean on the single-candidate ESA page."""

from __future__ import annotations

from dataclasses import dataclass

from metrics.json_out import json_dumps


@dataclass(frozen=True)
class Key:
    action: str
    key: str
    label: str
    does: str


SIDE_BY_SIDE_KEYS: tuple[Key, ...] = (
    Key("panel-previous", "[", "[", "the candidate to the left"),
    Key("panel-next", "]", "]", "the candidate to the right"),
    Key("cursor-previous", "ArrowLeft", "←", "the word before (Shift: extend the selection)"),
    Key("cursor-next", "ArrowRight", "→", "the word after (Shift: extend the selection)"),
    Key("cursor-missing", "i", "i", "select [MISSING]: something left out"),
    Key("mark-minor", "1", "1", "mark the selection a minor error"),
    Key("mark-major", "2", "2", "mark the selection a major error"),
    Key("remove-span", "Delete", "Del", "remove the span at the selection"),
    Key("undo", "u", "u", "undo the candidate's latest change"),
    Key("redo", "r", "r", "redo the change undone last"),
    Key("score", "s", "s", "type the score of the candidate (Enter saves it)"),
    Key("prefer-a", "a", "a", "A is better (3 or 4 a screen: A is the best)"),
    Key("prefer-same", "=", "=", "A and B are the same (3 or 4 a screen: none stands out)"),
    Key("prefer-b", "b", "b", "B is better (3 or 4 a screen: B is the best)"),
    Key("prefer-c", "c", "c", "C is the best (3 or 4 a screen)"),
    Key("prefer-d", "d", "d", "D is the best (4 a screen)"),
    Key("accept", "Ctrl+Enter", "Ctrl+Enter", "accept both and go to the next source"),
)


#: The keys of an aWER corpus's screen: the panels, the preference and accept as above;
#: in the active panel, the single aWER page's editor (its marked words, SSER, the new
#: reference's text), with other keys where the page's own are the preference's
#: (``a``, ``=``) or the digits' (SSER 0–9 here, 10 on ``+``).
_AWER_EDITOR = {
    "op-previous": ("ArrowLeft", "←", "the marked word before"),
    "op-next": ("ArrowRight", "→", "the marked word after"),
    "accept-op": ("Enter", "Enter", "accept the candidate's version at the marked word"),
    "severity": ("m", "m", "make the marked word a major error (again: minor)"),
    **{f"sser-{n}": (str(n), str(n), f"SSER {n}") for n in range(10)},
    "sser-10": ("+", "+", "SSER 10"),
    "edit-text": ("e", "e", "type the new reference's text (Enter saves it, Esc leaves it)"),
    "as-is": ("o", "o", "the candidate is correct as it is"),
}
AWER_SIDE_BY_SIDE_KEYS: tuple[Key, ...] = (
    *SIDE_BY_SIDE_KEYS[:2],
    *(Key(action, *rest) for action, rest in _AWER_EDITOR.items()),
    *(k for k in SIDE_BY_SIDE_KEYS if k.action in ("undo", "redo")),
    *(k for k in SIDE_BY_SIDE_KEYS if k.action.startswith("prefer-") or k.action == "accept"),
)


#: With IER on, the single aWER page's IER keys on the active panel's items. ``m`` is
#: the marked word's severity; while an item has the focus it marks the item a meaning
#: error instead, as on the single page (the script reads it so).
_AWER_IER = {
    "item-next": ("i", "i", "the next information item"),
    "item-previous": ("I", "Shift+I", "the information item before"),
    "item-ok": ("k", "k", "the item in focus is OK"),
    "item-syntax": ("y", "y", "the item in focus has a syntax error"),
    "item-meaning": ("m", "m", "the item in focus has a meaning error (while an item has it)"),
    "item-other": ("x", "x", "the item in focus has another error"),
}
AWER_IER_SIDE_BY_SIDE_KEYS: tuple[Key, ...] = (
    *AWER_SIDE_BY_SIDE_KEYS,
    *(Key(action, *rest) for action, rest in _AWER_IER.items()),
)


def keys_of(*, awer: bool, ier: bool = False) -> tuple[Key, ...]:
    """The keys of a screen of an aWER corpus (with IER's where ``ier``), or of an ESA /
    MQM one."""
    if awer:
        return AWER_IER_SIDE_BY_SIDE_KEYS if ier else AWER_SIDE_BY_SIDE_KEYS
    return SIDE_BY_SIDE_KEYS


def keys_json(*, awer: bool = False, ier: bool = False) -> str:
    """The table as the page's script reads it: action → key."""
    return json_dumps({k.action: k.key for k in keys_of(awer=awer, ier=ier)}, indent=None)


def key_label(action: str) -> str:
    """How the page names the key of ``action``."""
    return next(k.label for k in SIDE_BY_SIDE_KEYS if k.action == action)
