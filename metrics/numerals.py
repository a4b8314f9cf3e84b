"""Numbers as a person types them or a file writes them: in the ASCII digits 0–9, and
nothing else.

Python's ``int`` and ``float`` read far more: any Unicode decimal digit (``int("٣")`` is
3, ``float("١٢")`` is 12.0, ``int("３")`` is 3), ``"1_000"``, blanks around the number,
and (``float``) ``"nan"`` and ``"inf"``; ``str.isdigit`` says yes to ``"²"``, which
``int`` then refuses. Django's ``IntegerField`` and argparse's ``type=int`` read what
``int`` reads. A score or an SSER in Arabic-Indic digits would then be stored as a
number nobody typed in the digits every page, export and file writes it in. So every
number evaltool reads from a person or a file (a form field, a query parameter, a
judge's click, a command option, a file of scores) is read here, by one rule: ASCII
digits, an optional sign where a number may have one, a decimal point and an exponent
where it may be a decimal; anything else is a ``ValueError`` that says why.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: Digits alone (``[0-9]`` is ASCII whatever the flags; ``\d`` is not).
_DIGITS = re.compile(r"[0-9]+")
#: A whole number: digits, with a sign or not.
WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
#: A decimal number as a file writes it (``0.8512``, ``-1.5e-3``, ``.5``, ``7``).
DECIMAL_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")

ERR_NOT_WHOLE = "{text!r} is not a whole number written in the digits 0-9"
ERR_NOT_DECIMAL = "{text!r} is not a number written in the digits 0-9"
ERR_NOT_FINITE = "{text!r} is too large for a number"


def digits(text: str) -> bool:
    """Whether ``text`` is ASCII digits and nothing else (what ``str.isdigit`` is taken
    to mean): a position, a page, an id."""
    return _DIGITS.fullmatch(text) is not None


def whole_number(text: str) -> int:
    """``text`` as a whole number (:data:`WHOLE_NUMBER`, nothing around it); a
    ``ValueError`` otherwise."""
    if WHOLE_NUMBER.fullmatch(text) is None:
        raise ValueError(ERR_NOT_WHOLE.format(text=text))
    return int(text)


def decimal_number(text: str) -> float:
    """``text`` as a finite decimal number (:data:`DECIMAL_NUMBER`, nothing around it); a
    ``ValueError`` otherwise."""
    if DECIMAL_NUMBER.fullmatch(text) is None:
        raise ValueError(ERR_NOT_DECIMAL.format(text=text))
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(ERR_NOT_FINITE.format(text=text))
    return value


def _option(name: str, read: Callable[[str], T]) -> Callable[[str], T]:
    """``read`` as argparse's ``type``, named ``name`` in its refusals."""

    def option(text: str) -> T:
        return read(text)

    option.__name__ = name
    return option


#: argparse's ``type`` of an option that is a whole number, or a decimal one (command
#: lines, ``manage.py`` commands): refused as ``type=int`` and ``type=float`` refuse,
#: ``argument --seed: invalid int value: '٣'``.
int_option = _option("int", whole_number)
float_option = _option("float", decimal_number)
