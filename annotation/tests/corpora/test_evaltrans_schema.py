"""The evalTrans schema: refusal errors, translator roles, and a package free of Django."""

from __future__ import annotations

import pytest

from annotation.corpora import evaltrans
from annotation.corpora.evaltrans import (
    ERR_EVAL_WITHOUT_TARGET,
    EvalTransError,
    Role,
    translator_role,
)
from annotation.tests.factories import imports_django


def test_error_carries_file_line_and_reason() -> None:
    error = EvalTransError("corpus.xml", 12, ERR_EVAL_WITHOUT_TARGET)
    assert (error.filename, error.line, error.reason) == ("corpus.xml", 12, ERR_EVAL_WITHOUT_TARGET)
    assert str(error) == "corpus.xml line 12: <eval> without <target>"
    assert str(EvalTransError("corpus.xml", None, "no line")) == "corpus.xml: no line"
    assert isinstance(error, ValueError)


@pytest.mark.parametrize(
    "name, reference_names, role",
    [
        ("first reference", (), Role.FIRST_REFERENCE),
        ("first reference", ("first reference",), Role.FIRST_REFERENCE),
        ("multi reference", (), Role.REFERENCE),
        ("second reference", (), Role.REFERENCE),
        ("reference", (), Role.REFERENCE),
        ("human post-edit", ("human post-edit",), Role.REFERENCE),
        ("human post-edit", (), Role.SYSTEM),
        ("Statistical", ("Salt",), Role.SYSTEM),
        ("First Reference", (), Role.SYSTEM),  # names are case-sensitive
        ("reference-free MT", (), Role.SYSTEM),
    ],
)
def test_translator_role(name: str, reference_names: tuple[str, ...], role: Role) -> None:
    assert translator_role(name, reference_names) is role
    assert role.value in {"first_reference", "reference", "system"}


def test_module_imports_no_django() -> None:
    assert not imports_django("annotation.corpora.evaltrans")
    assert evaltrans.__name__ == "annotation.corpora.evaltrans"
