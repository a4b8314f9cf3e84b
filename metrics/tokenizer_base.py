"""The shared base of the tokenizers: :class:`Tokenizer`, the interface every named
tokenization method of :mod:`metrics.tokenize` implements, and :data:`Tokens`.

Its own module so that the tokenizer families (:mod:`metrics.tokenize_13a`,
:mod:`metrics.tokenize_unicode`, :mod:`metrics.tokenize_cjk`) and the registry in
:mod:`metrics.tokenize` that lists them all import it without importing each other.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

Tokens = tuple[str, ...]


class Tokenizer(ABC):
    """A named tokenization method (seed 000 §3.1), called like a sacreBLEU tokenizer."""

    name: ClassVar[str]

    def signature(self) -> str:
        """The name that goes into a score's signature (``tok:<name>``)."""
        return self.name

    def __call__(self, line: str) -> str:
        """The tokenized line, tokens separated by one space (sacreBLEU's return value)."""
        return " ".join(self.tokens(line))

    @abstractmethod
    def tokens(self, line: str) -> Tokens:
        """The tokens of ``line``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
