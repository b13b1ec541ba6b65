"""A database of a test's own for tests that drive `manage.py` in subprocesses: a SQLite file in the test's
temporary folder, or a PostgreSQL database created for the test on the server of DATABASE_URL and dropped after
it; `query` reads it without Django."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent
KINDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def _server_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith("postgres") else "postgres://postgres@127.0.0.1:5432/mafclub"


def _admin(url: str) -> str:
    return urlsplit(url)._replace(path="/postgres").geturl().replace("postgres://", "postgresql://", 1)


def postgres_reason() -> str | None:
    """Why there is no PostgreSQL to test on, or None."""
    try:
        import psycopg

        with psycopg.connect(_admin(_server_url()), connect_timeout=3):
            return None
    except Exception as e:  # noqa: BLE001 — any failure to connect is the reason to skip
        return f"no PostgreSQL answers at {urlsplit(_server_url()).netloc}: {e}"


@contextlib.contextmanager
def own_database(kind: str, tmp: Path, name: str) -> Iterator[str]:
    """Yield the DATABASE_URL of an empty database of the test's own. Each kind runs in its own run of the suite
    (./dev.sh test): PostgreSQL when DATABASE_URL names it, SQLite otherwise."""
    on_postgres = os.environ.get("DATABASE_URL", "").startswith("postgres")
    if kind == "sqlite" and on_postgres:
        pytest.skip("the SQLite run of the suite covers this (DATABASE_URL names PostgreSQL)")
    if kind == "postgres" and not on_postgres:
        pytest.skip("the PostgreSQL run of the suite covers this (DATABASE_URL does not name PostgreSQL)")
    if kind == "sqlite":
        yield f"sqlite:///{tmp / (name + '.sqlite3')}"
        return
    reason = postgres_reason()
    if reason:
        pytest.skip(reason)
    import psycopg

    base = urlsplit(_server_url())
    db = f"{base.path.lstrip('/') or 'mafclub'}_{name}_{os.getpid()}"[:63]

    def run(sql: str) -> None:
        with psycopg.connect(_admin(_server_url()), autocommit=True) as connection:
            connection.execute(sql)

    run(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
    run(f'CREATE DATABASE "{db}"')
    try:
        yield base._replace(path=f"/{db}").geturl()
    finally:
        run(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')


def env_for(url: str, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CACHE_URL", "MAFCLUB_TASK_PAUSE")}
    env.update({"DATABASE_URL": url, "TASKS_BACKEND": "database", "DJANGO_SETTINGS_MODULE": "club.settings",
                "PYTHONUNBUFFERED": "1", **extra})
    return env


def manage(env: dict, *args: str, timeout: float = 300, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True,
                            text=True, timeout=timeout)
    if check and result.returncode:
        raise AssertionError(f"manage.py {' '.join(args)} exited {result.returncode}:\n{result.stdout}\n"
                             f"{result.stderr}")
    return result


def query(url: str, sql: str) -> list[tuple]:
    """Rows of `sql` straight from the database (no Django, no transaction left open)."""
    if url.startswith("sqlite"):
        with contextlib.closing(sqlite3.connect(urlsplit(url).path, timeout=30)) as connection:
            return connection.execute(sql).fetchall()
    import psycopg

    with psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True) as connection:
        return connection.execute(sql).fetchall()
