"""The secrets of per-annotator links (issue 37), apart from Django: a link's token, what
is stored of it, the completion code, and the rule that keeps tokens out of every log.

A token is ``secrets.token_urlsafe(32)``: 256 random bits, 43 characters of
``[A-Za-z0-9_-]``, never guessable. The database keeps its SHA-256 only
(``AnnotatorLink.token_hash``: a copy of the database opens no queue) and its first
:data:`HINT_LENGTH` characters (``hint``), which is how lists and logs name a link.

The token travels in the link's path, ``/a/<token>/`` (:data:`LINK_PATH`), so every line
that could name the path (gunicorn's access log, Django's "Not Found" and 500 lines,
django-axes' records) carries it through :func:`redact_link_tokens`, which cuts it to
its hint. This module imports nothing of Django, so gunicorn's logger
(:mod:`evaltool.gunicorn_logging`) loads it before any app.
"""

from __future__ import annotations

import hashlib
import re
import secrets

#: The path of a link, before its token (the URL is ``/a/<token>/``). Short, as it is
#: handed to annotators on crowd platforms and in messages.
LINK_PATH = "/a/"
#: The name of a link's own URL (``evaltool/urls.py``), in no namespace.
LINK_URL_NAME = "annotation_link"
#: Bytes of randomness in a token (43 characters of URL-safe base 64).
TOKEN_BYTES = 32
#: Characters of the token kept as its hint (stored, listed, logged): 36 bits, enough
#: for a lead to tell links apart, far too few to open one.
HINT_LENGTH = 6
#: What stands for the rest of a token in a log line.
REDACTED = "…"
#: How login throttling (django-axes) names the attempts to open a link: ``link:`` and
#: the token's hint, which no username can be (``:`` is not allowed in one).
ATTEMPT_PREFIX = "link:"

#: A link's path with its token: the hint kept (group 1), the rest cut. Any run of the
#: token's alphabet after ``/a/`` longer than a hint, so a made-up token is cut as well
#: as a real one; a shorter one (``/a/next/``) is no token and stays as it is.
_TOKEN_IN_PATH = re.compile(
    rf"{re.escape(LINK_PATH)}([A-Za-z0-9_-]{{{HINT_LENGTH}}})[A-Za-z0-9_-]+"
)

#: Letters and digits no one misreads (no 0/O, 1/I/L) for the completion code.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Three groups of four: about 59 bits, which no crowd worker guesses, short to paste.
CODE_GROUPS = 3
CODE_GROUP_LENGTH = 4


def new_link_token() -> str:
    """A new link's token: shown once to the lead, never stored."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def link_token_hash(token: str) -> str:
    """What the database keeps of ``token``: its SHA-256, in hexadecimal. A token has 256
    random bits, so a plain hash is as safe as a slow one (nothing to search), and a
    link is found by one indexed lookup."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def link_token_hint(token: str) -> str:
    """The first characters of ``token``: how a list or a log line names the link."""
    return token[:HINT_LENGTH]


def redact_link_tokens(text: str) -> str:
    """``text`` with every link token cut to its hint: ``GET /a/AbCdEf…/ HTTP/1.1``."""
    if LINK_PATH not in text:
        return text
    return _TOKEN_IN_PATH.sub(lambda m: f"{LINK_PATH}{m.group(1)}{REDACTED}", text)


def new_completion_code() -> str:
    """A completion code for a crowd platform, such as ``K7PM-X3QA-9DFE``: unguessable,
    and readable from a screen."""
    return "-".join(
        "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_GROUP_LENGTH))
        for _ in range(CODE_GROUPS)
    )
