"""Database errors and locks shared by the apps (club is the bottom layer): conflicts between concurrent writers and
a database that does not answer, recognised the same way on SQLite and PostgreSQL, and the site-wide lock. Public API
only (the driver's SQLSTATE on the error's cause)."""

from __future__ import annotations

from django.db import InterfaceError, OperationalError, connection

# PostgreSQL SQLSTATEs of a conflict between transactions (serialization failure, deadlock, lock not available).
CONFLICT_SQLSTATES = {"40001", "40P01", "55P03"}


def site_lock(key: int) -> None:
    """Inside a transaction: wait for any other transaction holding the same site-wide lock. PostgreSQL takes an
    advisory transaction lock; SQLite has one writer at a time already (settings: transaction_mode IMMEDIATE)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def is_conflict(error: BaseException) -> bool:
    """Whether a database error is a conflict with another writer (answer 409/503 then, never 500): SQLite's
    "database is locked" after the busy timeout, a PostgreSQL deadlock, serialization failure or lock timeout."""
    if not isinstance(error, OperationalError):
        return False
    if getattr(error.__cause__, "sqlstate", None) in CONFLICT_SQLSTATES:
        return True
    text = str(error).lower()
    return "database is locked" in text or "database table is locked" in text or "deadlock" in text


# PostgreSQL SQLSTATEs of a server that is not there for the moment: class 08 (connection exception), the server
# shutting down or starting (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now), too many
# connections (53300).
UNAVAILABLE_SQLSTATES = {"57P01", "57P02", "57P03", "53300"}
UNAVAILABLE_TEXTS = ("connection refused", "could not connect", "server closed the connection", "connection is closed",
                     "terminating connection", "the database system is", "connection timeout expired",
                     "no connection to the server", "unable to open database file", "disk i/o error",
                     "consuming input failed", "connection failed")


def is_unavailable(error: BaseException | None) -> bool:
    """Whether a database error means the database does not answer (answer 503 with Retry-After, never 500): the
    server stopped, restarting or unreachable, a connection it dropped, SQLite's file out of reach. A conflict
    between writers (is_conflict) and a bad query are not."""
    if isinstance(error, InterfaceError):
        return True
    if not isinstance(error, OperationalError) or is_conflict(error):
        return False
    sqlstate = getattr(error.__cause__, "sqlstate", None) or ""
    if sqlstate.startswith("08") or sqlstate in UNAVAILABLE_SQLSTATES:
        return True
    text = str(error).lower()
    return any(part in text for part in UNAVAILABLE_TEXTS)
