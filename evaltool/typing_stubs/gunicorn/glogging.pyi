# The part of gunicorn's Logger (which ships no types) that evaltool/gunicorn_logging.py uses.

import logging
from typing import Any

class Logger:
    error_log: logging.Logger
    access_log: logging.Logger
    def __init__(self, cfg: Any) -> None: ...
    def setup(self, cfg: Any) -> None: ...
