"""A column of the metrics table as a paper prints it (``table.tex``, ``table.typ``:
:mod:`annotation.dashboard.paper`): the systems best first by rank group, each with the
score and interval the dashboard shows, a rule between rank groups, and a document that
pdflatex and Typst compile whatever the systems are named."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
import typst
from django.test import Client
from lxml import etree

from annotation.corpora.imports import corpus_import
from annotation.dashboard.paper import latex_text, typst_string
from annotation.models import Corpus
from annotation.tests.factories import HAND_REFS, write_corpus

pytestmark = pytest.mark.django_db

#: Names with every character LaTeX or a Typst string treats specially.
AWKWARD = ["a&b_c%d$e#f", "{braces}~tilde^caret", 'back\\slash "quoted" #let x'], "Ünïcode"


def latex_document(table: str) -> str:
    return (
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}\n"
        f"\\begin{{document}}\n{table}\\end{{document}}\n"
    )


def pdflatex(source: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    (tmp_path / "paper.tex").write_text(source, encoding="utf-8")
    return subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )


def typst_pdf(source: str, tmp_path: Path) -> bytes:
    path = tmp_path / "paper.typ"
    path.write_text(source, encoding="utf-8")
    return typst.compile(str(path))  # type: ignore[no-any-return]


def latex_rows(tex: str) -> list[list[str]]:
    """The body's rows, a rule between two rank groups as ``["rule"]``."""
    body = tex.split("\\midrule\n", 1)[1].split("\\bottomrule", 1)[0]
    rows = []
    for line in body.splitlines():
        if line == "\\midrule":
            rows.append(["rule"])
        else:
            rows.append(line.removesuffix(" \\\\").split(" & "))
    return rows


def test_a_column_is_a_latex_table_of_the_dashboards_ranks_scores_and_intervals(
    lead_client: Client, demo: Corpus, tmp_path: Path
) -> None:
    response = lead_client.get(f"/dashboard/{demo.pk}/table.tex?metric=bleu&tok=13a")
    full = json.loads(lead_client.get(f"/dashboard/{demo.pk}/table.json?tok=13a").content)
    tex = response.content.decode()

    assert response["Content-Type"] == "text/x-tex; charset=utf-8"
    assert 'filename="demo-bleu.tex"' in response["Content-Disposition"]
    bleu = {s: figures["bleu"] for s, figures in full["translators"].items()}
    best_first = sorted(bleu, key=lambda s: (bleu[s]["rank"], -bleu[s]["score"], s))
    rows = latex_rows(tex)
    shown = [r for r in rows if r != ["rule"]]
    assert [r[1] for r in shown] == best_first
    for rank, system, score, interval in shown:
        assert int(rank) == bleu[system]["rank"]
        assert score == f"{bleu[system]['score']:.2f}"
        low, high = bleu[system]["ci"]
        assert interval == f"[{low:.2f}, {high:.2f}]"
    # a rule exactly where the rank group changes
    groups = [bleu[s]["rank"] for s in best_first]
    assert rows.count(["rule"]) == len(set(groups)) - 1
    assert bleu[best_first[0]]["signature"] in tex.replace("\\_", "_").replace(
        "\\textasciitilde{}", "~"
    )
    assert pdflatex(latex_document(tex), tmp_path).returncode == 0


def test_by_default_the_table_is_the_human_column_and_too_few_is_said(
    lead_client: Client, demo: Corpus
) -> None:
    """The demo's judges judged a few sentences per system: no interval is claimed."""
    tex = lead_client.get(f"/dashboard/{demo.pk}/table.tex").content.decode()

    assert tex.startswith("% demo: sser (made by evaltool)")
    shown = [r for r in latex_rows(tex) if r != ["rule"]]
    assert shown
    assert {r[3] for r in shown} == {"too few"}
    assert {r[0] for r in shown} == {"1"}
    assert "too few judged sentences to rank the systems apart" in tex


def test_a_column_is_a_typst_table_that_typst_compiles(
    lead_client: Client, demo: Corpus, tmp_path: Path
) -> None:
    response = lead_client.get(f"/dashboard/{demo.pk}/table.typ?metric=chrf&tok=13a")
    source = response.content.decode()

    assert response["Content-Type"] == "text/vnd.typst; charset=utf-8"
    systems = list(demo.translators.filter(role="system").values_list("name", flat=True))
    for system in systems:
        assert re.search(rf'^    "\d+", {re.escape(typst_string(system))}, ', source, re.M)
    assert typst_pdf(source, tmp_path).startswith(b"%PDF")


def test_no_name_a_lead_can_type_breaks_either_document(
    lead_client: Client, tmp_path: Path
) -> None:
    names, accented = AWKWARD
    systems = {name: ["a b c d", "a b c", "a c d", "b c d"] for name in [*names, accented]}
    corpus = corpus_import(
        source=write_corpus(tmp_path / "awkward.xml", HAND_REFS, systems), name="c&o_r%p$u#s"
    ).corpus

    tex = lead_client.get(f"/dashboard/{corpus.pk}/table.tex?metric=wer").content.decode()
    typ = lead_client.get(f"/dashboard/{corpus.pk}/table.typ?metric=wer").content.decode()

    for name in [*names, accented]:
        assert f" & {latex_text(name)} & " in tex
        assert typst_string(name) in typ
    assert pdflatex(latex_document(tex), tmp_path).returncode == 0
    assert typst_pdf(typ, tmp_path).startswith(b"%PDF")


def test_the_escapes_leave_no_special_character_bare() -> None:
    assert latex_text("a&b_c%d$e#f{g}h~i^j\\k") == (
        "a\\&b\\_c\\%d\\$e\\#f\\{g\\}h\\textasciitilde{}i\\textasciicircum{}j\\textbackslash{}k"
    )
    assert latex_text("two\nlines") == "two lines"
    assert typst_string('say "hi" \\ #x') == '"say \\"hi\\" \\\\ #x"'


def test_an_unknown_metric_is_400_naming_the_columns(lead_client: Client, demo: Corpus) -> None:
    response = lead_client.get(f"/dashboard/{demo.pk}/table.tex?metric=nope")

    assert response.status_code == 400
    assert "nope" in response.content.decode()


def test_the_page_links_both_for_its_choices(lead_client: Client, demo: Corpus) -> None:
    page = etree.HTML(lead_client.get(f"/dashboard/{demo.pk}/?tok=13a").content.decode())

    (latex,) = page.xpath('//a[@id="download-latex"]')
    (typ,) = page.xpath('//a[@id="download-typst"]')
    assert latex.get("href").startswith(f"/dashboard/{demo.pk}/table.tex?")
    assert "tok=13a" in latex.get("href")
    assert typ.get("href").startswith(f"/dashboard/{demo.pk}/table.typ?")
