"""Importing and exporting another tool's campaign: ``python bench/other_tools.py``.

A campaign of Appraise's ESA CSV as WMT's are made (``--lines`` lines × ``--systems``
systems, each candidate rated by two of 20 annotators, one span each) on WMT's
plain-text files is imported by ``manage.py import_appraise`` and written back by
``manage.py export_appraise``, each a process of its own against a fresh SQLite database
in a temp dir (or ``DATABASE_URL``: it must then be a disposable database), under GNU
time: wall clock, CPU seconds and peak RSS. Last, whether the export gives the same rows
as the file (the round trip the tests check on a small campaign). Measured figures are
in docs/other-tools.md.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import manage, production_env, run_measured  # noqa: E402

USERS = 20
T0 = 1718899200


def write_campaign(root: Path, lines: int, systems: int, seed: int = 1) -> Path:
    """WMT's texts of en-de under ``root`` and the Appraise CSV of their ratings."""
    names = [f"sys{s}" for s in range(systems)]

    def numbered(words: str) -> list[str]:
        return [words.format(k=k) for k in range(lines)]

    files = {
        "sources/en-de.txt": numbered("source sentence number {k} with some words"),
        "references/en-de.refA.txt": numbered("Referenz Satz {k} mit einigen Wörtern"),
        "documents/en-de.docs": [f"news\td{k // 10}" for k in range(lines)],
        **{f"system-outputs/en-de/{s}.txt": numbered(s + " Satz {k} mit Wörtern") for s in names},
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("\n".join(text) + "\n", encoding="utf-8")
    rng = random.Random(seed)
    span = '"[{""start_i"": 0, ""end_i"": 6, ""severity"": ""minor"", ""error_type"": null}]"'
    rows, t = [], T0
    for s in names:
        for k in range(lines):
            for u in rng.sample(range(USERS), 2):
                t += 30
                score = rng.randint(0, 100)
                rows.append(
                    f"u{u},{s},{k},TGT,eng,deu,{score},d{k // 10},False,{span},{t},{t + 25}"
                )
    path = root / "esa.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--systems", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = production_env(work)
        csv = write_campaign(work / "wmt", args.lines, args.systems)
        n = sum(1 for _ in csv.open(encoding="utf-8"))
        run_measured(manage("migrate", "-v0"), env)
        texts = str(work / "wmt")
        imported = run_measured(
            manage("import_appraise", str(csv), "--texts", texts, "--pair", "en-de", "--name", "b"),
            env,
        )
        out = work / "out.csv"
        exported = run_measured(manage("export_appraise", "b", "-o", str(out)), env)
        same = sorted(csv.read_text("utf-8").splitlines()) == sorted(
            out.read_text("utf-8").splitlines()
        )
    print(f"Appraise CSV of {n:,} rows ({args.lines:,} lines × {args.systems} systems × 2)")
    for what, run in (("import_appraise", imported), ("export_appraise", exported)):
        print(
            f"  {what:16} {run.seconds:6.1f} s wall  {run.cpu:6.1f} s CPU  "
            f"{run.peak_mb:6.0f} MB peak"
        )
    print(f"  export gives the file's rows: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
