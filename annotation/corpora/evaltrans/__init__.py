"""Read and write evalTrans XML, the corpus format of seed 001 §3.1 — and nothing else.

One ``<sentence>`` holds its ``<source>`` and one ``<eval translator=…>`` per translation:
``translator="first reference"`` is the single reference of WER/SER, other translators
whose name ends in ``reference`` are further references, every other translator is an MT
system. A system's ``<eval>`` may carry one evaluator's judgment (``evaluator``, ``sser``
0–10, ``awer="e/n"`` and a ``<newRef>``); several ``<eval>`` of the same system are several
evaluators' judgments of the *same* target::

    <evalTrans name="optional corpus name">
    <sentence id="optional" doc="optional">
      <source>La figura muestra el método.</source>
      <eval translator="first reference">
        <target>This figure shows the procedure.</target>
      </eval>
      <eval translator="Statistical" evaluator="JM" sser="8" awer="1/5">
        <target>Chart represent the method.</target>
        <newRef>Chart represents the method.</newRef>
      </eval>
    </sentence>
    </evalTrans>

Why it looks the way it does:

* **Untrusted input.** Files are uploaded by users, so the parser is hardened (no entity
  expansion, no DTD loading, no network, libxml2's size limits) and any ``<!DOCTYPE`` is
  refused by a scan of the prolog *before* libxml2 sees a byte of it: a billion-laughs or
  external-entity file is refused without anything ever being expanded or fetched
  (:mod:`.guard`).
* **Large corpora.** Reading is streaming: the bytes are fed in chunks to lxml's feed
  parser (``XMLPullParser``, iterparse's push form, so the prolog and the UTF-8 check run on
  the raw bytes first) and every finished ``<sentence>`` is cleared with its preceding
  siblings, so memory does not grow with the file (:mod:`.reader`). Writing is streaming
  too (:mod:`.writer`).
* **One-line refusals.** Every problem is an :class:`EvalTransError` whose text is
  ``"<file> line <n>: <reason>"``; the reasons are the ``ERR_*`` constants of
  :mod:`.schema`, which the tests reuse.
* **Nothing lost.** Attributes and elements this package does not know are kept (as ordered
  attribute pairs and as serialized XML strings) and written back.
* **No Django here**, so the mapping is testable alone; the models and the import and
  export consume the dataclasses of :mod:`.schema`.

The modules: :mod:`.schema` (names, dataclasses, the sentence rules, refusal reasons),
:mod:`.guard` (raw-byte checks, parser options), :mod:`.reader` (the pass over a file),
:mod:`.element_reader` (one element: an ``<eval>``, children, text), :mod:`.writer`,
:mod:`.errors` (an aWER judgment's ``<errors>``, its error spans), :mod:`.judgment` (a
judgment's attributes), :mod:`.timing` (its effort: active time, IER's part, first and
last times), :mod:`.protocol` (the file's ``judgingProtocol`` and ``<mqmTaxonomy>``,
what an ESA or MQM judgment may carry), :mod:`.error_spans` (an ESA or MQM judgment's
``<errorSpans>``), :mod:`.imported_spans` (a span file's suggestions waiting for a
candidate's next judges, ``<importedSpans>``). Import
from the package: ``from annotation.corpora.evaltrans import iter_evaltrans``.
"""

from __future__ import annotations

from annotation.corpora.evaltrans.guard import (
    MAX_PROLOG,
    PARSER_OPTIONS,
)
from annotation.corpora.evaltrans.reader import (
    iter_evaltrans,
)
from annotation.corpora.evaltrans.schema import (
    CHUNK_SIZE,
    ERR_AWER_FORMAT,
    ERR_CUT_SHORT,
    ERR_CUT_SHORT_CHARACTER,
    ERR_DOCTYPE,
    ERR_DUPLICATE_CHILD,
    ERR_DUPLICATE_JUDGMENT,
    ERR_EMPTY_FILE,
    ERR_ENCODING,
    ERR_EVAL_WITHOUT_TARGET,
    ERR_EVAL_WITHOUT_TRANSLATOR,
    ERR_FLAG,
    ERR_MALFORMED,
    ERR_MARKUP_IN_TEXT,
    ERR_NO_FIRST_REFERENCE,
    ERR_NOT_UTF8,
    ERR_NOT_UTF8_WIDE,
    ERR_PROLOG_TOO_LONG,
    ERR_SECOND_FIRST_REFERENCE,
    ERR_SENTENCE_WITHOUT_SOURCE,
    ERR_SSER_NOT_INTEGER,
    ERR_SSER_RANGE,
    ERR_STRAY_TEXT,
    ERR_TARGET_DIFFERS,
    ERR_WRONG_ROOT,
    FIRST_REFERENCE,
    FLAGS,
    NOTE_MAX_LENGTH,
    REFERENCE_SUFFIX,
    SSER_MAX,
    SSER_MIN,
    Attrs,
    CorpusHeader,
    EvalElement,
    EvalTransError,
    Role,
    SentenceElement,
    attrs_from_json,
    attrs_to_json,
    awer_text,
    normalize_space,
    sentence_problem,
    translator_role,
)
from annotation.corpora.evaltrans.timing import Timing
from annotation.corpora.evaltrans.writer import (
    canonical_evals,
    iter_evaltrans_bytes,
    write_evaltrans,
)

__all__ = [
    "Attrs",
    "CHUNK_SIZE",
    "CorpusHeader",
    "ERR_AWER_FORMAT",
    "ERR_CUT_SHORT",
    "ERR_CUT_SHORT_CHARACTER",
    "ERR_DOCTYPE",
    "ERR_DUPLICATE_CHILD",
    "ERR_DUPLICATE_JUDGMENT",
    "ERR_EMPTY_FILE",
    "ERR_ENCODING",
    "ERR_EVAL_WITHOUT_TARGET",
    "ERR_EVAL_WITHOUT_TRANSLATOR",
    "ERR_FLAG",
    "ERR_MALFORMED",
    "ERR_MARKUP_IN_TEXT",
    "ERR_NOT_UTF8",
    "ERR_NOT_UTF8_WIDE",
    "ERR_NO_FIRST_REFERENCE",
    "ERR_PROLOG_TOO_LONG",
    "ERR_SECOND_FIRST_REFERENCE",
    "ERR_SENTENCE_WITHOUT_SOURCE",
    "ERR_SSER_NOT_INTEGER",
    "ERR_SSER_RANGE",
    "ERR_STRAY_TEXT",
    "ERR_TARGET_DIFFERS",
    "ERR_WRONG_ROOT",
    "EvalElement",
    "EvalTransError",
    "FIRST_REFERENCE",
    "FLAGS",
    "NOTE_MAX_LENGTH",
    "MAX_PROLOG",
    "PARSER_OPTIONS",
    "REFERENCE_SUFFIX",
    "Role",
    "SSER_MAX",
    "SSER_MIN",
    "SentenceElement",
    "Timing",
    "attrs_from_json",
    "attrs_to_json",
    "awer_text",
    "canonical_evals",
    "iter_evaltrans",
    "iter_evaltrans_bytes",
    "normalize_space",
    "sentence_problem",
    "translator_role",
    "write_evaltrans",
]
