"""NIST's own ``mteval-v13a.pl`` (vendored in ``data/``, see ``data/README.md``) run on a
corpus, for the tests to compare ``metrics/nist.py`` with.

The script reads SGML: a source set, a reference set with one ``<doc>`` per reference
(its ``sysid``), a test set with one ``<doc>`` per system. Their segments' text is
*markup*: the script's tokenizer unescapes ``&quot; &amp; &lt; &gt;`` once, as
sacreBLEU's 13a (and ours) does to a plain line. So a plain line goes into ``<seg>`` as
it is (``markup=as_is``), and the script reads exactly the text the metrics read. An XML
writer escapes ``&`` first (``markup=escaped``): the script then reads the text as
written, ``&amp;`` a word of three tokens where the metrics read ``&``.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

MTEVAL = Path(__file__).resolve().parent / "data" / "mteval-v13a.pl"

#: How a plain line becomes a segment's SGML text (module docstring).
Markup = Callable[[str], str]


def as_is(text: str) -> str:
    return text


def escaped(text: str) -> str:
    return escape(text)


@dataclass(frozen=True)
class MtevalNIST:
    """The script's NIST per system and per segment (``--metricsMATR-output``'s files,
    which print every digit Perl has, where its report rounds to four)."""

    systems: dict[str, float]
    segments: dict[str, list[float]]


def _sgml(kind: str, docs: Sequence[tuple[str, Sequence[str]]], markup: Markup) -> str:
    tag = {"src": "srcset", "ref": "refset", "tst": "tstset"}[kind]
    langs = 'srclang="en"' + ("" if kind == "src" else ' trglang="xx"')
    lines = [f'<{tag} setid="test" {langs}>']
    for sysid, segments in docs:
        owner = "" if kind == "src" else f' sysid="{sysid}"'
        lines.append(f'<doc{owner} docid="doc">')
        lines += [f'<seg id="{k}">{markup(text)}</seg>' for k, text in enumerate(segments, 1)]
        lines.append("</doc>")
    lines.append(f"</{tag}>")
    return "\n".join(lines) + "\n"


def run_mteval(
    refs: Sequence[Sequence[str]],
    systems: Mapping[str, Sequence[str]],
    workdir: Path,
    *,
    lowercase: bool = False,
    markup: Markup = as_is,
) -> MtevalNIST:
    """``mteval-v13a.pl -n`` (NIST only; ``-c`` unless ``lowercase``) on segment-major
    ``refs`` (every segment as many references) and ``systems``, in ``workdir``."""
    n_refs = {len(seg) for seg in refs}
    if len(n_refs) != 1:
        raise ValueError(f"mteval needs as many references per segment, not {sorted(n_refs)}")
    streams = [[seg[r] for seg in refs] for r in range(n_refs.pop())]
    files = {
        "src.sgm": _sgml("src", [("source", ["."] * len(refs))], markup),
        "ref.sgm": _sgml("ref", [(f"ref{r}", s) for r, s in enumerate(streams)], markup),
        "tst.sgm": _sgml("tst", list(systems.items()), markup),
    }
    for name, text in files.items():
        (workdir / name).write_text(text, encoding="utf-8")
    command = ["perl", str(MTEVAL), "-r", "ref.sgm", "-s", "src.sgm", "-t", "tst.sgm", "-n"]
    command += ["--metricsMATR-output", *([] if lowercase else ["-c"])]
    subprocess.run(command, cwd=workdir, check=True, capture_output=True)
    scores: dict[str, float] = {}
    for line in (workdir / "NIST-sys.scr").read_text(encoding="utf-8").splitlines():
        _, system, score = line.split("\t")
        scores[system] = float(score)
    segments: dict[str, list[float]] = {system: [] for system in systems}
    for line in (workdir / "NIST-seg.scr").read_text(encoding="utf-8").splitlines():
        _, system, _, _, score = line.split("\t")
        segments[system].append(float(score))  # the script writes them in segment order
    return MtevalNIST(scores, segments)
