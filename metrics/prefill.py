"""Error spans suggested without a model (ESA with pre-filled spans, ESA^AI's idea with
the aWER alignment in the place of a quality-estimation model): the candidate's words
aligned against its nearest reference (:func:`metrics.align.align`, the alignment the
aWER page colours) and every edit turned into a span of the candidate's characters.

**Which operations become which spans.** The candidate's words that are not matched
(*substitutions*: a word the reference says otherwise; *extras*: a word the reference
has not) are cut into runs of neighbouring words, and each run becomes one span from
its first word's first character to its last word's last one, so "for locate" is one
span, not two. A reference word the candidate lacks (*missing*) belongs to the run it
touches (an omission next to a wrong word is part of that error); one between two
matched words, or at either end of the candidate, is an omission of its own. All of a
candidate's omissions make one ``[MISSING]`` marker at the text's end, where ESA's page
shows it (:mod:`metrics.error_spans`).

**Minor or major.** Each operation weighs (:func:`op_weight`):

* 0: punctuation only (a comma too many, a full stop missing), or a substitution of a
  *like* word: the same word but for case, or spelt with at most half its characters
  changed (:func:`alike`: "show" for "shows", "procedures" for "procedure"), which is
  an error of form, not of meaning;
* 1: a word too many or a word missing;
* 2: a substitution of an unlike word (another word: meaning is at stake).

A span or the ``[MISSING]`` marker is **major** when its operations weigh 2 or more
(one word mistranslated, or two words too many or missing), **minor** otherwise. The
rule is a proxy: the reference is one translation among many, so the judge is meant to
correct the suggestions, and the campaign page shows how often they were kept.

Words are 13a tokens (what aWER counts); each is found in the candidate's text in order
(:func:`token_offsets`); a token the text does not spell as such (13a rewrites a few
entities) takes the blank-delimited word it falls in.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from metrics.align import EditOp, Op, align, distance
from metrics.error_spans import MarkedSpan
from metrics.mqm import MAJOR, MINOR

#: The weight at which a span is major (module doc).
MAJOR_WEIGHT = 2

_WORD = re.compile(r"\S+")


def is_punctuation(token: str) -> bool:
    """Whether ``token`` holds punctuation and symbols only (Unicode categories P and S)."""
    return bool(token) and all(unicodedata.category(c)[0] in "PS" for c in token)


def alike(word: str, other: str) -> bool:
    """Whether ``word`` is ``other`` but for case or at most half of the longer one's
    characters (case-folded character edits): a form error, not another word."""
    a, b = word.casefold(), other.casefold()
    if a == b:
        return True
    return 2 * distance(tuple(a), tuple(b)) <= max(len(a), len(b))


def op_weight(edit: EditOp) -> int:
    """An operation's weight (module doc): 0, 1 or 2."""
    if edit.op is Op.MATCH:
        return 0
    words = [w for w in (edit.hyp_word, edit.ref_word) if w is not None]
    if all(is_punctuation(w) for w in words):
        return 0
    if edit.op is Op.SUBSTITUTION and edit.hyp_word is not None and edit.ref_word is not None:
        return 0 if alike(edit.hyp_word, edit.ref_word) else 2
    return 1


#: What a span's severity weighs at least, when two runs meet in one word.
_WEIGHT_OF = {MINOR: 0, MAJOR: MAJOR_WEIGHT}


def severity_of(weight: int) -> str:
    return MAJOR if weight >= MAJOR_WEIGHT else MINOR


def token_offsets(text: str, tokens: Sequence[str]) -> list[tuple[int, int]]:
    """Each token's characters ``[start, end)`` in ``text``, found in order (module doc).
    Where the text spells a token otherwise (13a reads ``&amp;`` as ``&``), the token
    before takes the rest of its blank-delimited word, or the token takes the word at
    the search's place."""
    words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    out: list[tuple[int, int]] = []
    at = 0
    for token in tokens:
        found = text.find(token, at)
        if found >= 0:
            gap = text[at:found]
            rest = _WORD.match(gap)
            rest_end = rest.end() if rest else 0
            if not gap.strip() or (out and rest_end and not gap[rest_end:].strip()):
                if rest_end and gap.strip():
                    out[-1] = (out[-1][0], at + rest_end)
                out.append((found, found + len(token)))
                at = found + len(token)
                continue
        word = next(((a, b) for a, b in words if b > at), None)
        if word is None:
            out.append((len(text), len(text)))
            continue
        out.append((max(word[0], at), word[1]))
        at = word[1]
    return out


def suggested_spans(candidate: str, hyp: Sequence[str], ref: Sequence[str]) -> list[MarkedSpan]:
    """The spans suggested for ``candidate`` (its text; ``hyp`` its 13a words) against the
    words ``ref`` of its nearest reference, in the text's order, the ``[MISSING]``
    marker last (module doc). None for a candidate equal to the reference, as ESA^AI
    suggests none for a segment its model finds error-free."""
    offsets = token_offsets(candidate, hyp)
    spans: list[MarkedSpan] = []
    run: list[EditOp] = []
    omitted: list[EditOp] = []
    pending: list[EditOp] = []  # missing words waiting to know whether a run touches them

    def close() -> None:
        if any(e.op is not Op.MISSING for e in run):
            first = next(e for e in run if e.op is not Op.MISSING)
            last = next(e for e in reversed(run) if e.op is not Op.MISSING)
            start, end = offsets[first.hyp_pos][0], offsets[last.hyp_pos][1]
            weight = sum(op_weight(e) for e in run)
            if spans and start < spans[-1].end:  # one word read as two tokens: one span
                last_span = spans.pop()
                start, weight = last_span.start, weight + _WEIGHT_OF[last_span.severity]
            if start < end:
                spans.append(MarkedSpan(start, end, severity_of(weight)))
        run.clear()

    for edit in align(hyp, ref).ops:
        if edit.op is Op.MATCH:
            close()
            omitted.extend(pending)
            pending.clear()
        elif edit.op is Op.MISSING:
            (run if run else pending).append(edit)
        else:
            run.extend(pending)
            pending.clear()
            run.append(edit)
    close()
    omitted.extend(pending)
    if omitted:
        weight = sum(op_weight(e) for e in omitted)
        at = len(candidate)
        spans.append(MarkedSpan(at, at, severity_of(weight), missing=True))
    return spans
