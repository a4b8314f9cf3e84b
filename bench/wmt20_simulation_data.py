"""Write the small WMT 2020 files that ``python -m metrics simulate`` replays
(``bench/data/wmt20/``, described in its README).

    python bench/wmt20_simulation_data.py MQM WMT20 [--out bench/data/wmt20]

``MQM`` is a copy of github.com/google/wmt-mqm-human-evaluation (its
``newstest2020/{zhen,ende}/mqm_newstest2020_*.avg_seg_scores.tsv``), ``WMT20`` a copy of
github.com/WMT-Metrics-task/wmt20-metrics (``input/details/{zh-en,en-de}.txt`` and the
``final-metric-scores/*/*.seg.score.gz`` listed in :data:`METRICS`). Both are read by
``bench/estimate.py``'s readers, so the segment ids and documents are the same there.

For each pair, two gzip TSV files with a header line:

* ``human.tsv.gz``: ``segment  document  system  score``, one row per system and segment
  (the MQM score averaged over its raters; higher is better, 0 = no error). The
  reference of the automatic metrics, ``Human-A.0``, is left out; segments some system
  lacks a score on are left out.
* ``covariates.tsv.gz``: ``segment  system  <metric> …``, the WMT20 metrics task's segment
  scores of the same outputs against that reference, for the metrics of :data:`METRICS`
  that cover every system and segment kept (rounded to five significant digits).
"""

from __future__ import annotations

import argparse
import gzip
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from estimate import (  # noqa: E402
    REFERENCE,
    read_mqm_averages,
    read_wmt20_documents,
    read_wmt20_scores,
)

PAIRS = ("zh-en", "en-de")
#: The segment-level metrics kept where they cover every system (the others in the
#: task's repository are stored out of line and absent from ordinary copies).
METRICS = (
    "chrF",
    "TER",
    "parbleu",
    "parchrf++",
    "YiSi-2",
    "Yisi-combi",
    "bleurt-combi",
    "BAQ_dyn",
    "SWSS+METEOR",
)


def write_pair(mqm: Path, wmt20: Path, lp: str, out: Path) -> str:
    """Write one pair's two files; a line saying what was kept."""
    code = lp.replace("-", "")
    averages = read_mqm_averages(
        mqm / "newstest2020" / code / f"mqm_newstest2020_{code}.avg_seg_scores.tsv"
    )
    systems = sorted(s for s in averages if s != REFERENCE["newstest2020"])
    segments = sorted(
        k
        for k in set.intersection(*(set(averages[s]) for s in systems))
        if not any(math.isnan(averages[s][k]) for s in systems)
    )
    positions = read_wmt20_documents(wmt20, lp)
    documents = {k: d for (d, _), k in positions.items()}
    metrics = {}
    for name, scores in read_wmt20_scores(wmt20, lp, positions):
        if name in METRICS and all(
            s in scores and all(k in scores[s] for k in segments) for s in systems
        ):
            metrics[name] = scores
    names = [m for m in METRICS if m in metrics]
    folder = out / code
    folder.mkdir(parents=True, exist_ok=True)
    human = ["segment\tdocument\tsystem\tscore"]
    covariates = ["\t".join(["segment", "system", *names])]
    for s in systems:
        for k in segments:
            human.append(f"{k}\t{documents[k]}\t{s}\t{averages[s][k]:.6g}")
            values = "\t".join(f"{metrics[m][s][k]:.5g}" for m in names)
            covariates.append(f"{k}\t{s}\t{values}")
    for name, lines in (("human", human), ("covariates", covariates)):
        data = ("\n".join(lines) + "\n").encode("utf-8")
        # mtime 0: running the script again writes the same bytes
        (folder / f"{name}.tsv.gz").write_bytes(gzip.compress(data, mtime=0))
    return f"{lp}: {len(systems)} systems, {len(segments)} segments, metrics {', '.join(names)}"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("mqm", type=Path, help="a copy of google/wmt-mqm-human-evaluation")
    p.add_argument("wmt20", type=Path, help="a copy of WMT-Metrics-task/wmt20-metrics")
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "data" / "wmt20")
    args = p.parse_args()
    for lp in PAIRS:
        print(write_pair(args.mqm, args.wmt20, lp, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
