"""Logging helpers for club/settings.py."""

from __future__ import annotations

import logging


class BriefRefusals(logging.Filter):
    """A refused hostile request (django.security: a foreign Host header, too many fields, a body over the
    limit) and a 503 while the database does not answer are logged as one line, without the traceback: they are
    expected and say all in their message; a real error keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("django.security") or getattr(record, "status_code", None) == 503:
            record.exc_info = None
            record.exc_text = None
        return True
