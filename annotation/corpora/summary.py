"""What an import stored, as the command line and the upload page say it: its own module,
beside :mod:`annotation.corpora.imports` (which returns it), so the import keeps to the
writing."""

from __future__ import annotations

from dataclasses import dataclass

from annotation.formatting import counted
from annotation.models import Corpus


@dataclass(frozen=True)
class ImportSummary:
    """What an import stored, in the words the command line and the upload page print."""

    corpus: Corpus
    sentences: int
    references_min: int
    references_max: int
    systems: int
    judgments: int
    warnings: tuple[str, ...]
    warnings_total: int
    #: The file's evaluators (by name), and whether they were assigned as judges.
    evaluators: tuple[str, ...] = ()
    assigned: bool = False

    def lines(self) -> list[str]:
        refs = (
            str(self.references_min)
            if self.references_min == self.references_max
            else f"{self.references_min}–{self.references_max}"
        )
        out = [
            f"Imported corpus {self.corpus.name!r}: {counted(self.sentences, 'sentence')}, "
            f"{refs} reference{'s' if self.references_max > 1 else ''} per sentence, "
            f"{counted(self.systems, 'system')}, "
            f"{counted(self.judgments, 'judgment')}.",
        ]
        if self.evaluators:
            names = ", ".join(self.evaluators)
            out.append(
                f"Evaluators {names}: assigned as judges."
                if self.assigned
                else f"Evaluators {names}: not assigned as judges "
                "(--assign, or the upload form's “Assign” box, assigns them)."
            )
        if self.warnings_total:
            out.append(f"{self.warnings_total} warning(s):")
            out.extend(f"  {w}" for w in self.warnings)
            if self.warnings_total > len(self.warnings):
                out.append(f"  … and {self.warnings_total - len(self.warnings)} more")
        return out
