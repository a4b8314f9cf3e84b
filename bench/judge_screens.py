"""Screenshots of the judge's page for the docs: ``python bench/judge_screens.py``.

Builds the demo (``manage.py demo_setup``: the TED zh-en demo corpus and the account
``demo-judge``) in a temporary SQLite database, starts a ``make serve`` server on it and
opens the judge's first candidate in Debian's Chromium, at 1000×700 (a laptop: everything
a click needs on one screen) and at 1920×1080 (source and candidate side by side). Writes
``docs/judge-1000x700.png`` and ``docs/judge-1920x1080.png`` (``--out`` another folder),
the window as the judge sees it, without scrolling. The demo's sources are Chinese:
without a CJK font (Debian's ``fonts-wqy-zenhei``) Chromium draws them as boxes.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # first: bench/metrics.py must not hide the metrics package

from bench.browser import chromium, log_in, manage, open_corpus, server  # noqa: E402
from bench.common import production_env  # noqa: E402

SIZES = ((1000, 700), (1920, 1080))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="evaltool-screens-") as tmp:
        env = production_env(Path(tmp), "screens.sqlite3")
        manage(env, "migrate", "--noinput")
        manage(env, "demo_setup")
        with server(env) as base, chromium() as browser:
            for width, height in SIZES:
                context = browser.new_context(viewport={"width": width, "height": height})
                page = context.new_page()
                log_in(page, base, "demo-judge", "demo-judge-pw")
                open_corpus(page, base, "ted-zhen-demo")
                path = args.out / f"judge-{width}x{height}.png"
                page.screenshot(path=str(path))
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
                context.close()


if __name__ == "__main__":
    main()
