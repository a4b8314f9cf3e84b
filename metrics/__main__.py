"""``python -m metrics``: score hypothesis files against reference files.

    python -m metrics --ref REF [--ref REF …] --hyp HYP [--hyp HYP …] \\
        --metric bleu,nist,wer,mwer,ser,per,per2,chrf,chrf++,ter,meteor,lepor,wngram-f,cer … \\
        [--tokenize 13a] [--lowercase] [--ref-length nearest] [--sentence] [--json] \\
        [--distinct-refs] [--empty-ref ins|100] \\
        [--lepor-alpha 1 --lepor-beta 1] [--weights tfidf|sscore] [--docs FILE] \\
        [--unsegmented [--segmented-out DIR] [--aswer-as-defined] [--resegment-cj]] \\
        [--paired-bs [--paired-bs-n 1000] | --paired-ar [--paired-ar-n 10000]] \\
        [--confidence [--confidence-n 1000]]

``python -m metrics estimate …`` estimates a system's full-corpus human score from its
judged segments, with automatic metrics as control variates (:mod:`metrics.estimate_cli`
has its options; ``docs/metrics.md`` the method). ``python -m metrics human …`` gives an
ESA or MQM campaign's figures per system with WMT's rank clusters
(:mod:`metrics.protocols_cli`).
``python -m metrics simulate …`` replays judging policies on a complete human-score file
(:mod:`metrics.simulate_cli` has its options; ``docs/simulate.md`` the results).

This module reads the first word and prints; the options are defined in
:mod:`metrics.cli_options`, the files scored in :mod:`metrics.cli_scoring`.

Installed (``pip install .``), the same command is ``evaltool-metrics``. Without
``--hyp`` (or with ``--hyp -``) the one hypothesis is read from standard input.

Files hold one segment per line (a leading byte-order mark is kept in the first word, as
sacreBLEU and jiwer read it; ``--docs`` drops it); ``wer``, ``ser``, jiwer's ``cer``,
``mer``, ``wil`` and ``wip`` and the weighted n-gram metrics
(``wngram-p``, ``wngram-r``, ``wngram-f``) use the first ``--ref``; ``--docs`` gives the
latter's document of each segment (one id per line), else the corpus is one document.
BLEU, chrF, LEPOR, the weighted n-grams and the error rates (TER too) are printed in
percent, NIST raw. TER ignores ``--tokenize`` and ``--lowercase``: it normalises as
sacreBLEU's TER (lowercased, split at whitespace), with sacreBLEU's options
``--ter-case-sensitive``, ``--ter-normalized``, ``--ter-no-punct`` and
``--ter-asian-support``. METEOR (percent) reads the tokenizer's words, lowercased, and
needs WordNet 3.0 (Debian's wordnet-base; without it, one line says so). Bad input exits
with status 2 and one line naming the file, the line and the problem — never a traceback.

``--empty-ref`` is the WER family's rate against an empty reference (``ins``, the default:
the insertions over 1, as jiwer; ``100``: 0 or 100 %; ``empty:…`` in the signatures).

``--sentence`` adds each segment's score, on the metric's own scale, computed from that
segment's statistics alone as the metric scores one sentence (BLEU with effective order,
as ``sacrebleu.sentence_bleu``); a segment whose score is undefined (not a finite
number) is ``null`` in the JSON and ``–`` in the table.

``--distinct-refs``: a segment's reference identical to an earlier one of the same segment
is read once, so a segment has as many references as it has different ones. Reference
files give every segment as many references as there are files, and a segment with fewer
repeats one (``manage.py export_references`` repeats the first); a repeated reference
changes the metrics that average over references (NIST, TER, mWER and PER with
``--ref-length nearest`` or ``average``: docs/metrics.md), so this reads them as the app
scores its grown reference pool.

``--unsegmented``: each ``--hyp`` file is one document (its line breaks are spaces),
re-segmented against the references (seed 002, :mod:`metrics.segment`) before every
metric is computed on the result; the metric ``aswer`` (AS-WER) exists only then. With
``--docs``, each line of a ``--hyp`` file is one document, the ``d``-th run of equal ids
of ``--docs``, re-segmented against that document's references alone (mweralign's
``--docid-file``). ``--resegment-cj`` re-segments over mweralign's ``cj`` words (its
``--tokenizer cj``, for Chinese and Japanese: :mod:`metrics.cj_words`).
The split is mwerSegmenter's (``mweralign``'s) unless ``--aswer-as-defined``: seed 002's
recursion as written, which does not charge the segment ends crossed before the
document's first word (:mod:`metrics.segment`; ``mweralign:yes|no`` in AS-WER's
signature). ``--segmented-out DIR`` writes each re-segmented hypothesis to
``DIR/<basename>``, one segment per line; with ``--json`` each hypothesis also carries
``"segmentation": {"boundaries": [...], "reference_per_segment": [...]}``.

Significance, as sacreBLEU 2.6's command line computes it (:mod:`metrics.paired` has the
rules; the seed is ``$SACREBLEU_SEED``, default 12345): ``--paired-bs`` (paired bootstrap
resampling) or ``--paired-ar`` (approximate randomization) compares every ``--hyp`` with
the first, the baseline, on every metric asked for; ``--confidence`` adds each system's
95 % bootstrap interval (``--paired-bs`` gives it anyway). The table then prints
sacreBLEU's cells, ``score (μ ± ci) (p = 0.0123)*`` (``*``: p < 0.05), the baseline's row
as ``Baseline: <file name>``, a legend, and the test's signature as its last line
(``test:paired-bs|bs:1000|seed:12345|version:…``). Rows are named by file name (the path as
given when two files share one; ``<stdin>`` for standard input); a ``--hyp`` given twice
is refused (its two rows would be one; sacreBLEU refuses a repeated system too).

A reader that stops reading (``| head -1``) ends the command quietly with status 141, as
sacreBLEU's (a process ended by SIGPIPE, to the shell), never a traceback.

JSON (``--json``)::

    {"<hyp path as given, - for standard input>": {
        "<metric>": {
            "score": <float>, "signature": "<str>",
            "segments": [<float or null>, ...],            # --sentence
            "p_value": <float>,                            # a paired test, not the baseline
            "mean": <float>, "ci": <float>,                # an interval: sacreBLEU's μ ± ci
            "low": <float>, "high": <float>,               #   and its percentile interval
            "baseline": "<the first hyp path>",            # a paired test
            "test": "test:paired-bs|bs:1000|seed:12345|version:…"   # any test
        }, ...,
        "segmentation": {"boundaries": [...], "reference_per_segment": [...]}  # --unsegmented
    }, ...}

Figures that are undefined (not finite) are ``null``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from metrics.cli import program_name, quiet_when_the_reader_leaves, refused
from metrics.cli_options import score_parser, test_setup
from metrics.cli_scoring import score_files, segment_scores, significance
from metrics.cli_tables import score_table, segment_table
from metrics.json_out import json_dumps
from metrics.textfiles import STDIN, SegmentFileError

if TYPE_CHECKING:
    from metrics.segment import Segmentation

#: The first word that runs ``python -m metrics estimate`` (:mod:`metrics.estimate_cli`).
ESTIMATE = "estimate"
#: The first word that runs ``python -m metrics human`` (:mod:`metrics.protocols_cli`).
HUMAN = "human"
#: The first word that runs ``python -m metrics simulate`` (:mod:`metrics.simulate_cli`).
SIMULATE = "simulate"


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    return quiet_when_the_reader_leaves(lambda: _run(words))


def _run(words: list[str]) -> int:
    """Score and print (or estimate: :mod:`metrics.estimate_cli`); the exit status."""
    if words[:1] == [ESTIMATE]:
        from metrics import estimate_cli

        return estimate_cli.main(words[1:], program_name())
    if words[:1] == [HUMAN]:
        from metrics import protocols_cli

        return protocols_cli.main(words[1:], program_name())
    if words[:1] == [SIMULATE]:
        from metrics import simulate_cli

        return simulate_cli.main(words[1:], program_name())
    parser = score_parser()
    args = parser.parse_args(words)
    args.hyp = args.hyp or [STDIN]
    segmentations: dict[str, Segmentation] = {}
    try:
        setup = test_setup(args)
        results = score_files(args, segmentations)
        tests = significance(results, args, setup) if setup else None
    except (SegmentFileError, ValueError, OSError) as exc:
        return refused(parser.prog, exc)
    segments = segment_scores(results, args) if args.sentence else None
    if args.json:
        baseline = args.hyp[0] if setup and setup.test else None
        payload = {
            hyp: {
                m: {
                    **score.as_json(),
                    **({"segments": segments[hyp][m]} if segments else {}),
                    **(tests[hyp][m].as_json() if tests else {}),
                    **({"baseline": baseline} if baseline else {}),
                    **({"test": setup.signature()} if setup else {}),
                }
                for m, score in scores.items()
            }
            for hyp, scores in results.items()
        }
        for hyp, segmentation in segmentations.items():
            payload[hyp]["segmentation"] = {
                "boundaries": list(segmentation.boundaries),
                "reference_per_segment": list(segmentation.reference_per_segment),
            }
        print(json_dumps(payload))
    else:
        print(score_table(results, tests, setup) + (segment_table(segments) if segments else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
