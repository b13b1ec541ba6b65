"""Database conflicts between concurrent writers, recognised the same way on SQLite and PostgreSQL."""

from __future__ import annotations

from django.db import OperationalError

# PostgreSQL SQLSTATEs of a conflict between transactions (serialization failure, deadlock, lock not available).
CONFLICT_SQLSTATES = {"40001", "40P01", "55P03"}


def is_conflict(error: BaseException) -> bool:
    """Whether a database error is a conflict with another writer (answer 409/503 then, never 500): SQLite's
    "database is locked" after the busy timeout, a PostgreSQL deadlock, serialization failure or lock timeout."""
    if not isinstance(error, OperationalError):
        return False
    if getattr(error.__cause__, "sqlstate", None) in CONFLICT_SQLSTATES:
        return True
    text = str(error).lower()
    return "database is locked" in text or "database table is locked" in text or "deadlock" in text
