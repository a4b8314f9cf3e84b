"""Tokenization and normalization (seed 000 §3.1–3.4).

PLACEHOLDER INTERFACE — being completed. Public API (keep it):

    pp = Preprocessor(tokenize="13a", lowercase=False, sentence_boundaries=False)
    pp.tokens("Hello, world.")   -> ("Hello", ",", "world", ".")
    pp.signature_parts()         -> {"tok": "13a", "case": "mixed", "bounds": "no"}

``sentence_boundaries`` only matters to n-gram metrics: ``pp.tokens`` never adds them;
n-gram metrics call ``pp.ngram_tokens(text)``, which wraps the tokens in ``<s>`` … ``</s>``
when the option is on.
"""

from __future__ import annotations

from dataclasses import dataclass

BOS = "<s>"
EOS = "</s>"


@dataclass(frozen=True)
class Preprocessor:
    tokenize: str = "13a"
    lowercase: bool = False
    sentence_boundaries: bool = False

    def tokens(self, text: str) -> tuple[str, ...]:
        if self.lowercase:
            text = text.lower()
        return tuple(text.split())

    def ngram_tokens(self, text: str) -> tuple[str, ...]:
        toks = self.tokens(text)
        return (BOS, *toks, EOS) if self.sentence_boundaries else toks

    def signature_parts(self) -> dict[str, object]:
        return {
            "tok": self.tokenize,
            "case": "lc" if self.lowercase else "mixed",
            "bounds": "yes" if self.sentence_boundaries else "no",
        }
