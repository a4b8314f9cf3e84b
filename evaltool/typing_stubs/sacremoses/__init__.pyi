# The part of sacremoses (which ships no types) that annotation.text uses.

from typing import Literal

class MosesDetokenizer:
    def __init__(self, lang: str = "en") -> None: ...
    def detokenize(
        self, tokens: list[str], return_str: Literal[True] = True, unescape: bool = True
    ) -> str: ...
