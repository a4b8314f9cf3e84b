"""Metric speed against the reference implementations, measured in the same run.

    python bench/metrics.py [--segments 3000] [--systems 20] [--repeat 3] [--check]

Targets (metrics issue): BLEU time ≤ 1.0× sacreBLEU's for the same scores; WER time ≤
0.5× jiwer's; chrF time ≤ 0.5× sacreBLEU's; TER time ≤ 0.25× sacreBLEU's TER (issue 12;
``--ter-systems`` of the systems, since sacreBLEU's TER takes minutes); METEOR time ≤ 0.2×
a loop over NLTK's ``meteor_score`` (``--meteor-systems`` of the systems, our tokens on
both sides, NLTK's WordNet reader on the same Debian files, built before the clock starts
as ours is read before it: :func:`nltk_wordnet`). The corpus is
synthetic but real-length: sentence lengths and words from the TED demo corpus, two
references, systems as edited copies of the first reference with their own error rates,
some outputs shared between systems (``bench/gen_corpus.py``).

Whole process (metrics issue 26: BLEU and WER ≤ 0.25× sacreBLEU's and jiwer's time): 16
WMT17-like systems × 3,004 segments, one reference, written to files and scored by each
tool's command line, start-up included: ``python -m metrics --metric bleu`` against
``sacrebleu REF -i SYS… -m bleu`` (one process each, all systems), ``python -m metrics
--metric wer --tokenize none`` against jiwer's command line, which takes one system per
process (a row also gives a loop over ``jiwer.wer`` in one process). Both sides get
bytecode caches (``PYTHONPYCACHEPREFIX`` in the bench's temporary directory, a warm-up run
first), as installed packages have; ``--whole-process-only`` runs this part alone, and
``--checkout DIR`` runs another checkout's ``python -m metrics`` (a figure before a change).

Every timing is the best of ``--repeat`` runs and starts cold: our token caches are
cleared and sacreBLEU gets fresh metric objects, so neither side profits from an earlier
run. Our time always includes preparing the references (once for all systems).
``--check`` exits 1 when a ratio is past its target (:class:`bench.common.Verdicts`; by
hand, not in CI).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jiwer  # noqa: E402
from sacrebleu.metrics.bleu import BLEU as SacreBLEU  # noqa: E402
from sacrebleu.metrics.chrf import CHRF as SacreCHRF  # noqa: E402
from sacrebleu.metrics.ter import TER as SacreTER  # noqa: E402

from bench.common import Budget, Verdicts, add_check_option  # noqa: E402
from bench.gen_corpus import iter_sentences  # noqa: E402

#: Every ratio of the run against its target (``--check``).
VERDICTS = Verdicts()
from metrics.bleu import BLEU  # noqa: E402
from metrics.chrf import CHRF  # noqa: E402
from metrics.chrf import corpus_rows as chrf_corpus_rows  # noqa: E402
from metrics.corpus import score_corpus  # noqa: E402
from metrics.meteor import METEOR  # noqa: E402
from metrics.meteor import corpus_rows as meteor_corpus_rows  # noqa: E402
from metrics.porter import stem  # noqa: E402
from metrics.ter import TER  # noqa: E402
from metrics.tokenize import Preprocessor, clear_token_caches  # noqa: E402
from metrics.wer import WER  # noqa: E402
from metrics.wordnet import load_wordnet  # noqa: E402

#: WordNet 3.0's lexicographer files, which NLTK's reader wants and Debian does not ship.
LEXNAMES = (
    "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute "
    "noun.body noun.cognition noun.communication noun.event noun.feeling noun.food "
    "noun.group noun.location noun.motive noun.object noun.person noun.phenomenon "
    "noun.plant noun.possession noun.process noun.quantity noun.relation noun.shape "
    "noun.state noun.substance noun.time verb.body verb.change verb.cognition "
    "verb.communication verb.competition verb.consumption verb.contact verb.creation "
    "verb.emotion verb.motion verb.perception verb.possession verb.social verb.stative "
    "verb.weather adj.ppl"
)


def nltk_wordnet(top: Path) -> Any:
    """NLTK's WordNet reader on a copy of our WordNet files under ``top`` (the layout
    metrics/tests/conftest.py explains: lexnames written, index.sense empty)."""
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    corpus = top / "corpora" / "wordnet"
    corpus.mkdir(parents=True)
    for path in load_wordnet().root.iterdir():
        if path.is_file():
            shutil.copyfile(path, corpus / path.name)
    category = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}
    names = LEXNAMES.split()
    (corpus / "lexnames").write_text(
        "".join(f"{i:02d}\t{n}\t{category[n.split('.')[0]]}\n" for i, n in enumerate(names))
    )
    (corpus / "index.sense").write_text("")
    nltk.data.path.append(str(top))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return WordNetCorpusReader(str(corpus), None)


#: A corpus's references (a tuple per segment) and each system's segments.
Refs = list[tuple[str, ...]]
Hyps = dict[str, list[str]]


def make_corpus(segments: int, systems: int, references: int = 2) -> tuple[Refs, Hyps]:
    refs: list[tuple[str, ...]] = []
    hyps: dict[str, list[str]] = {}
    for sentence in iter_sentences(
        sentences=segments, references=references, systems=systems, seed=7
    ):
        refs.append(tuple(e.target for e in sentence.evals if e.translator.endswith("reference")))
        for e in sentence.evals:
            if not e.translator.endswith("reference"):
                hyps.setdefault(e.translator, []).append(e.target)
    return refs, hyps


def row(label: str, seconds: float, note: str = "") -> None:
    print(f"  {label:<42}{seconds:7.3f} s   {note}".rstrip())


def ratio(what: str, ours: float, theirs: float, target: float) -> str:
    """The note of a row with a target: our time over theirs, judged (``--check``)."""
    value = ours / theirs
    over = VERDICTS.judge(what, value, Budget(target, "×"))
    return f"ratio {what} {value:.2f}  (target ≤ {target:g}){'  OVER' if over else ''}"


def best_of(repeat: int, run: Callable[[], list[float]]) -> tuple[float, list[float]]:
    best, scores = float("inf"), []
    for _ in range(repeat):
        clear_token_caches()
        start = time.perf_counter()
        scores = run()
        best = min(best, time.perf_counter() - start)
    return best, scores


def run_timed(commands: list[list[str]], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall time and CPU time (user + system, of the child processes) of running
    ``commands`` one after the other. On a shared machine the CPU time is the steadier
    figure: the wall time also counts the waits for a core."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    for command in commands:
        subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def whole_process(segments: int, systems: int, repeat: int, checkout: Path = ROOT) -> None:
    """The command lines timed from start to exit (the module doc); ``python -m metrics``
    runs in ``checkout`` (another one's metrics/ for a figure before a change)."""
    refs, hyps = make_corpus(segments, systems, references=1)
    with tempfile.TemporaryDirectory() as tmp:
        top = Path(tmp)
        ref = top / "ref.txt"
        ref.write_text("".join(f"{r[0]}\n" for r in refs), encoding="utf-8")
        paths = []
        for name, lines in hyps.items():
            paths.append(str(top / f"{name}.txt"))
            Path(paths[-1]).write_text("".join(f"{h}\n" for h in lines), encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(top / "pycache")
        python, bin_dir = sys.executable, Path(sys.executable).parent
        ours = [python, "-m", "metrics", "--ref", str(ref), *(f"--hyp={p}" for p in paths)]
        jiwer_loop = (
            "import jiwer, sys\n"
            "ref = open(sys.argv[1]).read().splitlines()\n"
            "for p in sys.argv[2:]: print(jiwer.wer(ref, open(p).read().splitlines()))"
        )
        rows = {
            "ours BLEU": [[*ours, "--metric", "bleu"]],
            "sacreBLEU BLEU": [[python, "-m", "sacrebleu", str(ref), "-i", *paths, "-m", "bleu"]],
            "ours WER": [[*ours, "--metric", "wer", "--tokenize", "none"]],
            "jiwer": [[str(bin_dir / "jiwer"), "-r", str(ref), "-h", p] for p in paths],
            "jiwer.wer loop": [[python, "-c", jiwer_loop, str(ref), *paths]],
            "ours --help": [[python, "-m", "metrics", "--help"]],
        }
        for commands in rows.values():  # warm-up: bytecode caches written
            subprocess.run(commands[0], cwd=checkout, env=env, check=True, capture_output=True)
        # rounds of every row, so that a busy spell of the machine hits all rows alike
        wall = dict.fromkeys(rows, float("inf"))
        cpu = dict.fromkeys(rows, float("inf"))
        for _ in range(repeat):
            for label, commands in rows.items():
                w, c = run_timed(commands, env, checkout)
                wall[label], cpu[label] = min(wall[label], w), min(cpu[label], c)
    print(f"Whole process, {len(refs):,} segments × {len(hyps)} systems, one reference")
    print(f"  {'':<42}{'wall':>7}   {'CPU':>7}")

    def line(label: str, key: str, versus: str = "", target: str = "") -> None:
        note = ""
        if versus:
            note = (
                f"ratio wall {wall[key] / wall[versus]:.2f}, CPU {cpu[key] / cpu[versus]:.2f}"
                + (f"  (target ≤ {target})" if target else "")
            )
        if target:  # both sides timed in the same rounds: the wall clock's ratio is judged
            budget = Budget(float(target), "×")
            if VERDICTS.judge(f"whole process {key}/{versus}", wall[key] / wall[versus], budget):
                note += "  OVER"
        print(f"  {label:<42}{wall[key]:7.3f} s {cpu[key]:7.3f} s   {note}".rstrip())

    line("python -m metrics --metric bleu", "ours BLEU", "sacreBLEU BLEU", "0.25")
    line("sacrebleu REF -i SYS… -m bleu", "sacreBLEU BLEU")
    line("python -m metrics --metric wer (tok:none)", "ours WER", "jiwer", "0.25")
    line(f"jiwer -r REF -h SYS, {len(paths)} processes", "jiwer")
    line("  ours against jiwer.wer in one process", "ours WER", "jiwer.wer loop")
    line("jiwer.wer over the systems, one process", "jiwer.wer loop")
    line("python -m metrics --help (start-up)", "ours --help")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", type=int, default=3000)
    parser.add_argument("--systems", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ter-systems", type=int, default=10)
    parser.add_argument("--ter-repeat", type=int, default=1)
    parser.add_argument("--meteor-systems", type=int, default=10)
    parser.add_argument("--whole-segments", type=int, default=3004)
    parser.add_argument("--whole-systems", type=int, default=16)
    parser.add_argument("--whole-process-only", action="store_true")
    parser.add_argument(
        "--checkout", type=Path, default=ROOT, help="where python -m metrics runs (default: here)"
    )
    add_check_option(parser)
    args = parser.parse_args()

    whole_process(args.whole_segments, args.whole_systems, args.repeat, args.checkout)
    if not args.whole_process_only:
        in_process(args)
    VERDICTS.finish(args.check)


def in_process(args: argparse.Namespace) -> None:
    """Each metric against its reference implementation, in this process."""

    refs, hyps = make_corpus(args.segments, args.systems)
    streams = [list(s) for s in zip(*refs, strict=True)]
    words = sum(len(h.split()) for system in hyps.values() for h in system)
    print(f"corpus: {len(refs):,} segments × {len(hyps)} systems, 2 references, {words:,} words")
    print()
    t_bleu = bleu_against_sacrebleu(args, refs, hyps, streams)
    wer_against_jiwer(args, refs, hyps, streams)
    chrf_against_sacrebleu(args, refs, hyps, streams)
    ter_against_sacrebleu(args, refs, hyps, streams)
    meteor_against_nltk(args, refs, hyps)
    shared_references(args, refs, hyps, t_bleu)


def bleu_against_sacrebleu(
    args: argparse.Namespace, refs: Refs, hyps: Hyps, streams: list[list[str]]
) -> float:
    """BLEU, ours and sacreBLEU's two ways; our time for all systems."""

    def ours_bleu() -> list[float]:
        metric = BLEU()
        prepared = metric.prepare_references(refs)
        return [metric.corpus_score(h, refs, prepared).score for h in hyps.values()]

    def sacre_bleu_plain() -> list[float]:
        return [SacreBLEU().corpus_score(h, streams).score for h in hyps.values()]

    def sacre_bleu_cached() -> list[float]:
        metric = SacreBLEU(references=streams)
        return [metric.corpus_score(h, None).score for h in hyps.values()]

    t_ours, s_ours = best_of(args.repeat, ours_bleu)
    t_plain, s_plain = best_of(args.repeat, sacre_bleu_plain)
    t_cached, s_cached = best_of(args.repeat, sacre_bleu_cached)
    bleu_diff = max(
        abs(a - b) for other in (s_plain, s_cached) for a, b in zip(s_ours, other, strict=True)
    )
    print("BLEU (13a, exp smoothing, closest length), all systems")
    row("ours, references prepared once", t_ours)
    row(
        "sacreBLEU BLEU().corpus_score per system",
        t_plain,
        f"ratio ours/sacreBLEU {t_ours / t_plain:.2f}",
    )
    row(
        "sacreBLEU BLEU(references=…), cached",
        t_cached,
        ratio("ours/sacreBLEU BLEU", t_ours, t_cached, 1.0),
    )
    print(f"  largest score difference {bleu_diff:.2e}\n")

    return t_ours


def wer_against_jiwer(
    args: argparse.Namespace, refs: Refs, hyps: Hyps, streams: list[list[str]]
) -> None:
    """WER, ours (whitespace words and 13a) and jiwer's, on the first reference."""
    first = streams[0]

    def ours_wer() -> list[float]:
        metric = WER(Preprocessor(tokenize="none"))
        prepared = metric.prepare_references(refs)
        return [metric.corpus_score(h, refs, prepared).score for h in hyps.values()]

    def ours_wer_13a() -> list[float]:
        metric = WER()
        prepared = metric.prepare_references(refs)
        return [metric.corpus_score(h, refs, prepared).score for h in hyps.values()]

    def jiwer_wer() -> list[float]:
        return [100 * jiwer.wer(first, h) for h in hyps.values()]

    t_wer, w_ours = best_of(args.repeat, ours_wer)
    t_wer13a, _ = best_of(args.repeat, ours_wer_13a)
    t_jiwer, w_jiwer = best_of(args.repeat, jiwer_wer)
    wer_diff = max(abs(a - b) for a, b in zip(w_ours, w_jiwer, strict=True))
    print("WER (first reference, whitespace words as jiwer), all systems")
    row("ours, tok:none", t_wer, ratio("ours/jiwer WER", t_wer, t_jiwer, 0.5))
    row("jiwer.wer per system", t_jiwer)
    row("ours, tok:13a (the default)", t_wer13a, f"ratio ours/jiwer {t_wer13a / t_jiwer:.2f}")
    print(f"  largest score difference {wer_diff:.2e}\n")


def chrf_against_sacrebleu(
    args: argparse.Namespace, refs: Refs, hyps: Hyps, streams: list[list[str]]
) -> None:
    """chrF, ours and sacreBLEU's."""

    def ours_chrf() -> list[float]:
        metric = CHRF()
        rows = chrf_corpus_rows([metric], refs, hyps)
        return [float(metric.score_from_stats(r["chrf"].sum(axis=0))) for r in rows.values()]

    def sacre_chrf_cached() -> list[float]:
        metric = SacreCHRF(references=streams)
        return [metric.corpus_score(h, None).score for h in hyps.values()]

    t_chrf, c_ours = best_of(args.repeat, ours_chrf)
    t_sacre_chrf, c_sacre = best_of(1, sacre_chrf_cached)  # about a second per system
    chrf_diff = max(abs(a - b) for a, b in zip(c_ours, c_sacre, strict=True))
    print("chrF (β 2, character 6-grams), all systems at once")
    row("ours (metrics.chrf.corpus_rows)", t_chrf)
    row(
        "sacreBLEU CHRF(references=…), cached",
        t_sacre_chrf,
        ratio("ours/sacreBLEU chrF", t_chrf, t_sacre_chrf, 0.5),
    )
    print(f"  largest score difference {chrf_diff:.2e}\n")


def ter_against_sacrebleu(
    args: argparse.Namespace, refs: Refs, hyps: Hyps, streams: list[list[str]]
) -> None:
    """TER, ours system by system and all at once, and sacreBLEU's."""
    ter_hyps = dict(list(hyps.items())[: args.ter_systems])

    def ours_ter() -> list[float]:
        metric = TER()
        prepared = metric.prepare_references(refs)
        return [metric.corpus_score(h, refs, prepared).score for h in ter_hyps.values()]

    def ours_ter_together() -> list[float]:
        metric = TER()
        got = score_corpus(refs, ter_hyps, [metric])
        return [got[name]["ter"].score for name in ter_hyps]

    def sacre_ter() -> list[float]:
        metric = SacreTER(references=streams)
        return [metric.corpus_score(h, None).score for h in ter_hyps.values()]

    t_ter, s_ter = best_of(args.ter_repeat, ours_ter)
    t_together, s_together = best_of(args.ter_repeat, ours_ter_together)
    t_sacre_ter, s_sacre_ter = best_of(args.ter_repeat, sacre_ter)
    ter_diff = max(
        abs(a - b) for ours in (s_ter, s_together) for a, b in zip(ours, s_sacre_ter, strict=True)
    )
    print(f"TER (tercom normalisation, shifts), {len(ter_hyps)} systems")
    row(
        "ours, system by system",
        t_ter,
        ratio("ours/sacreBLEU TER", t_ter, t_sacre_ter, 0.25),
    )
    row(
        "ours, all systems at once (score_corpus)",
        t_together,
        ratio("ours/sacreBLEU TER at once", t_together, t_sacre_ter, 0.25),
    )
    row("sacreBLEU TER(references=…), cached", t_sacre_ter)
    print(f"  largest score difference {ter_diff:.2e}\n")


def meteor_against_nltk(args: argparse.Namespace, refs: Refs, hyps: Hyps) -> None:
    """METEOR, ours and NLTK's (with a WordNet of its own, in a temporary directory)."""
    meteor_hyps = dict(list(hyps.items())[: args.meteor_systems])
    meteor = METEOR()
    with tempfile.TemporaryDirectory() as top:
        wordnet = nltk_wordnet(Path(top))
        from nltk.translate.meteor_score import meteor_score

        def ours_meteor() -> list[float]:
            stem.cache_clear()  # cold, as NLTK's stemmer and synset cache are
            meteor.wordnet.clear_cache()
            rows = meteor_corpus_rows(meteor, refs, meteor_hyps)
            return [x for r in rows.values() for x in meteor.sentence_score_from_stats(r)]

        def nltk_meteor() -> list[float]:
            words = meteor.preprocessor.tokens  # NLTK lowercases them itself
            tokens = [[list(words(r)) for r in seg] for seg in refs]
            return [
                100 * meteor_score(seg, list(words(h)), wordnet=wordnet)
                for system in meteor_hyps.values()
                for h, seg in zip(system, tokens, strict=True)
            ]

        t_meteor, m_ours = best_of(args.repeat, ours_meteor)
        t_nltk, m_nltk = best_of(1, nltk_meteor)  # about 3 s per system
    meteor_diff = max(abs(a - b) for a, b in zip(m_ours, m_nltk, strict=True))
    print(f"METEOR (exact, stem, WordNet synonyms; 13a words), {len(meteor_hyps)} systems")
    row(
        "ours (metrics.meteor.corpus_rows)",
        t_meteor,
        ratio("ours/NLTK METEOR", t_meteor, t_nltk, 0.2),
    )
    row("NLTK meteor_score per segment", t_nltk)
    print(f"  largest sentence score difference {meteor_diff:.2e}\n")


def shared_references(args: argparse.Namespace, refs: Refs, hyps: Hyps, t_ours: float) -> None:
    """What scoring every system costs beside one (the reference side is shared)."""
    one_name = next(iter(hyps))

    def ours_bleu_one() -> list[float]:
        metric = BLEU()
        prepared = metric.prepare_references(refs)
        return [metric.corpus_score(hyps[one_name], refs, prepared).score]

    t_one, _ = best_of(args.repeat, ours_bleu_one)
    print("Sharing the reference side between systems (ours, BLEU)")
    row("1 system", t_one)
    row(f"{len(hyps)} systems", t_ours, f"= {t_ours / t_one:.1f}× one system")


if __name__ == "__main__":
    main()
