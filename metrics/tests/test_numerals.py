"""Numbers are read in the ASCII digits 0–9 only: what else Python's ``int`` and ``float``
read (other scripts' digits, underscores, blanks, ``nan``) is refused with its reason."""

from __future__ import annotations

import argparse

import pytest

from metrics.numerals import (
    decimal_number,
    digits,
    float_option,
    int_option,
    whole_number,
)

#: What Python reads as a number though no one wrote it in the digits 0–9.
OTHER_DIGITS = ["٣", "١٢", "３", "۳", "३", "𝟑"]


@pytest.mark.parametrize("text, expected", [("0", 0), ("7", 7), ("+3", 3), ("-12", -12)])
def test_a_whole_number_is_ascii_digits_with_a_sign_or_not(text: str, expected: int) -> None:
    assert whole_number(text) == expected


@pytest.mark.parametrize("text", [*OTHER_DIGITS, "1٢", "", " 3", "3 ", "1_000", "3.0", "²", "x"])
def test_anything_else_is_no_whole_number(text: str) -> None:
    with pytest.raises(ValueError, match="is not a whole number written in the digits 0-9"):
        whole_number(text)


def test_python_reads_the_digits_of_other_scripts_as_numbers() -> None:
    """Why the rule is needed: each of these is a number to ``int`` and ``float``."""
    assert [int(t) for t in OTHER_DIGITS] == [3, 12, 3, 3, 3, 3]
    assert float("١٢.٥") == 12.5


@pytest.mark.parametrize(
    "text, expected",
    [("0.8512", 0.8512), ("-1.5e-3", -0.0015), (".5", 0.5), ("7", 7.0), ("3.", 3.0)],
)
def test_a_decimal_number_is_ascii_digits_a_point_and_an_exponent(
    text: str, expected: float
) -> None:
    assert decimal_number(text) == expected


@pytest.mark.parametrize("text", [*OTHER_DIGITS, "١٢.٥", "nan", "inf", "1_000", "0,5", " 1", ""])
def test_anything_else_is_no_decimal_number(text: str) -> None:
    with pytest.raises(ValueError, match="is not a number written in the digits 0-9"):
        decimal_number(text)


def test_a_decimal_too_large_for_a_float_is_refused() -> None:
    with pytest.raises(ValueError, match="'1e999' is too large for a number"):
        decimal_number("1e999")


@pytest.mark.parametrize("text, expected", [("0", True), ("0123", True), ("", False)])
def test_digits_are_ascii_digits_alone(text: str, expected: bool) -> None:
    assert digits(text) is expected


@pytest.mark.parametrize("text", [*OTHER_DIGITS, "²", "-1", "+1", "1.0"])
def test_digits_are_not_what_isdigit_accepts(text: str) -> None:
    assert not digits(text)


def test_an_option_in_other_digits_is_refused_as_argparse_refuses_a_word(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = argparse.ArgumentParser(prog="p")
    parser.add_argument("--n", type=int_option)
    parser.add_argument("--x", type=float_option)

    assert parser.parse_args(["--n", "12", "--x", "0.5"]) == argparse.Namespace(n=12, x=0.5)
    for args, message in [
        (["--n", "١٢"], "argument --n: invalid int value: '١٢'"),
        (["--x", "٠.٥"], "argument --x: invalid float value: '٠.٥'"),
    ]:
        with pytest.raises(SystemExit):
            parser.parse_args(args)
        assert message in capsys.readouterr().err
