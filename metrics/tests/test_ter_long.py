"""TER on long lines (issue 40, point 3): the figures of sacreBLEU 2.6's ``TER()``, in less
memory than it takes on the same line.

The lines are real text (:func:`metrics.tests.demo.long_line_pair`): the demo's system
documents against its references' documents, and the references' words with one
neighbour swap and one replaced word in every 20. sacreBLEU's search is plain Python
and takes minutes on 2,000 words (272 s on the edited line, on the machine these were
measured on), so its figures at that length are recorded here (``SACREBLEU_EDITS``, as
its ``TER().corpus_score`` gave them; ``bench/ter_memory.py`` computes them again beside
ours, too long a run for the suite); shorter lines are compared with sacreBLEU itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from sacrebleu.metrics import TER as SacreTER

from metrics.__main__ import main
from metrics.ter import TER
from metrics.ter_beam import LONG_CELLS
from metrics.tests.demo import long_line_pair

ROOT = Path(__file__).resolve().parents[2]

#: sacreBLEU 2.6 ``TER().corpus_score([hyp], [[ref]]).num_edits`` of the long lines.
SACREBLEU_EDITS = {("documents", 2000): 1389, ("edited", 2000): 264, ("documents", 5000): 3759}
#: sacreBLEU's peak resident memory on the 2,000-word edited line (``bench/ter_memory.py``,
#: Python and its modules included), in MB.
SACREBLEU_PEAK_MB = 299


def _our_edits(hyp: str, ref: str) -> float:
    stats = TER().corpus_score([hyp], [(ref,)]).stats
    assert stats is not None
    return float(stats[0, 0])


@pytest.mark.parametrize("kind, words", [("edited", 200), ("edited", 300)])
def test_a_line_kept_as_its_band_scores_as_sacrebleu(kind: str, words: int) -> None:
    hyp, ref = long_line_pair(kind, words)
    assert (words + 1) ** 2 > LONG_CELLS  # the band's path, not the whole matrices'
    assert _our_edits(hyp, ref) == SacreTER().corpus_score([hyp], [[ref]]).num_edits


def _peak_in_a_fresh_process(kind: str, words: int) -> dict[str, float]:
    """TER's edits of a long line and the process's peak resident memory (VmHWM, MB),
    computed in a process of its own."""
    code = (
        "import json, sys\n"
        "from metrics.tests.demo import long_line_pair\n"
        "from metrics.ter import TER\n"
        f"hyp, ref = long_line_pair({kind!r}, {words})\n"
        "stats = TER().corpus_score([hyp], [(ref,)]).stats\n"
        "peak = [int(l.split()[1]) / 1024 for l in open('/proc/self/status')"
        " if l.startswith('VmHWM:')][0]\n"
        "print(json.dumps({'edits': float(stats[0, 0]), 'peak_mb': peak}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    found: dict[str, float] = json.loads(done.stdout)
    return found


def test_a_2000_word_line_takes_less_memory_than_sacrebleu_for_the_same_edits() -> None:
    """The line that took 6 GB (a whole matrix for each candidate shift of many rounds)."""
    found = _peak_in_a_fresh_process("edited", 2000)
    assert found["edits"] == SACREBLEU_EDITS[("edited", 2000)]
    assert found["peak_mb"] < SACREBLEU_PEAK_MB / 2


def test_the_2000_word_documents_give_sacrebleus_edits() -> None:
    hyp, ref = long_line_pair("documents", 2000)
    assert _our_edits(hyp, ref) == SACREBLEU_EDITS[("documents", 2000)]


def test_the_command_line_scores_a_5000_word_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """It ended in a ``MemoryError`` traceback; now it prints sacreBLEU's figure."""
    hyp, ref = long_line_pair("documents", 5000)
    (tmp_path / "ref.txt").write_text(ref + "\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text(hyp + "\n", encoding="utf-8")
    argv = ["--ref", str(tmp_path / "ref.txt"), "--hyp", str(tmp_path / "hyp.txt")]
    assert main([*argv, "--metric", "ter", "--json"]) == 0
    out, err = capsys.readouterr()
    score = json.loads(out)[str(tmp_path / "hyp.txt")]["ter"]["score"]
    assert score == pytest.approx(100 * SACREBLEU_EDITS[("documents", 5000)] / 5000)
    assert err == ""


@pytest.mark.slow
def test_a_5000_word_line_is_scored_without_running_out_of_memory() -> None:
    """5,000 words ended in a ``MemoryError``."""
    found = _peak_in_a_fresh_process("documents", 5000)
    assert found["edits"] == SACREBLEU_EDITS[("documents", 5000)]
    assert found["peak_mb"] < SACREBLEU_PEAK_MB / 2
