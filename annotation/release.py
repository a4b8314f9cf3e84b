"""Which release of the code this process runs: a digest of its source, read once when
the process starts.

Two places need it. The figures every app server shares are named after the code that
computed them (:func:`annotation.statistics.shared.code_version`, which adds the
libraries' versions: a figure is a number a library may round otherwise). And a job
records the release that queued it, so that a worker still running an earlier release
during an upgrade leaves a job of a later one to the workers that have its code, rather
than compute it by rules that have changed (:mod:`annotation.jobs.releases`): there the
libraries do not count, as two machines of one release may have installed other patch
versions of numpy.

The digest is read when the process starts (this module is imported with the app: a few
hundred files, some 40 ms), so that a process still running the code it started with
never names its work after files a new release put in its place.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

#: The packages whose source makes the release (their tests excepted).
CODE = ("annotation", "metrics", "evaltool")
ROOT = Path(__file__).resolve().parents[1]


@functools.cache
def source_version() -> str:
    """A digest of the app's and the metrics' source files (path and content), 16 hex
    digits."""
    digest = hashlib.blake2b(digest_size=8)
    for package in CODE:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if "tests" not in relative.parts:
                digest.update(str(relative).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


source_version()
