"""Backups that restore (`manage.py backup FILE`, `manage.py restore FILE [--force]`).

SQLite: the file is a copy made with SQLite's online backup API (consistent while the site runs); restoring copies it
back the same way. PostgreSQL: `pg_dump --format=custom`, restored with `pg_restore --clean --if-exists
--single-transaction`, so a restore that fails changes nothing. pg_dump must not be older than the server (it
refuses to dump a newer one); the message says which client to install.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connection, connections

from club.models import Club, Player

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"
TIMEOUT = 3600  # seconds pg_dump / pg_restore may take


class BackupError(Exception):
    """A backup or restore that cannot go on; the message says why and what to do."""


class NotEmpty(BackupError):
    """The database to restore into already holds data (restore --force replaces it)."""


def _settings() -> dict:
    return connections[DEFAULT_DB_ALIAS].settings_dict


def _pg_env_args(tool: str) -> tuple[list[str], dict]:
    db = _settings()
    path = shutil.which(tool) or f"/usr/bin/{tool}"
    if not os.path.exists(path):
        raise BackupError(f"{tool} is not installed (Debian: apt-get install postgresql-client)")
    args = [path]
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            args += [flag, str(db[key])]
    env = {**os.environ}
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return args, env


def _major(version_text: str) -> int:
    found = re.search(r"\(PostgreSQL\)\s+(\d+)", version_text)
    if not found:
        raise BackupError(f"cannot read a version from {version_text!r}")
    return int(found.group(1))


def pg_versions(tool: str = "pg_dump") -> tuple[int, int]:
    """(the client tool's major version, the server's)."""
    args, env = _pg_env_args(tool)
    out = subprocess.run([args[0], "--version"], capture_output=True, text=True, env=env, timeout=60)
    client = _major(out.stdout)
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version_num")
        server = int(cursor.fetchone()[0]) // 10000
    return client, server


def has_data() -> bool:
    """Does the database hold a club's data (logins, clubs, players; games belong to a club)? An unmigrated one
    holds none, nor one with only what the migrations seed (the rule-set presets)."""
    tables = set(connection.introspection.table_names())
    return any(model._meta.db_table in tables and model.objects.exists() for model in (get_user_model(), Club, Player))


def sqlite_copy(path: Path) -> None:
    """Copy the site's SQLite database to `path` with SQLite's online backup API (consistent while others write)."""
    connection.ensure_connection()
    target = sqlite3.connect(path)
    try:
        connection.connection.backup(target)
    finally:
        target.close()


def backup(path: Path) -> str:
    """Write a backup of the site's database to `path` (replaced only when the backup is complete)."""
    path = path.resolve()
    if not path.parent.is_dir():
        raise BackupError(f"{path.parent}: no such folder")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.close(fd)
    try:
        if connection.vendor == "sqlite":
            sqlite_copy(Path(tmp))
            kind = "SQLite"
        elif connection.vendor == "postgresql":
            client, server = pg_versions("pg_dump")
            if client < server:
                raise BackupError(f"pg_dump {client} cannot dump a PostgreSQL {server} server: install "
                                  f"postgresql-client-{server}")
            args, env = _pg_env_args("pg_dump")
            done = subprocess.run([*args, "--format=custom", "--no-owner", "--file", tmp, _settings()["NAME"]],
                                  capture_output=True, text=True, env=env, timeout=TIMEOUT)
            if done.returncode:
                raise BackupError(f"pg_dump failed: {done.stderr.strip()}")
            kind = f"PostgreSQL (pg_dump {client}, server {server})"
        else:
            raise BackupError(f"backups of a {connection.vendor} database are not supported")
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return kind


def restore(path: Path, *, force: bool = False) -> str:
    """Load the backup at `path` into the site's database; refuses one that holds data unless `force`."""
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    with open(path, "rb") as f:
        head = f.read(16)
    if connection.vendor == "sqlite":
        if head != SQLITE_MAGIC:
            raise BackupError(f"{path}: not an SQLite backup (made by manage.py backup on an SQLite site)")
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            check = source.execute("PRAGMA integrity_check").fetchone()[0]
            if check != "ok":
                raise BackupError(f"{path}: the backup is damaged ({check})")
            _refuse_data(force)
            connection.ensure_connection()
            source.backup(connection.connection)
        finally:
            source.close()
        connection.close()
        return "SQLite"
    if connection.vendor == "postgresql":
        if not head.startswith(PG_MAGIC):
            raise BackupError(f"{path}: not a PostgreSQL backup (pg_dump --format=custom, made by manage.py backup "
                              "on a PostgreSQL site)")
        _refuse_data(force)
        args, env = _pg_env_args("pg_restore")
        connection.close()
        done = subprocess.run([*args, "--clean", "--if-exists", "--no-owner", "--single-transaction",
                               "--exit-on-error", "--dbname", _settings()["NAME"], str(path)],
                              capture_output=True, text=True, env=env, timeout=TIMEOUT)
        if done.returncode:
            raise BackupError(f"pg_restore failed, the database is unchanged: {done.stderr.strip()}")
        return "PostgreSQL"
    raise BackupError(f"restoring a {connection.vendor} database is not supported")


def _refuse_data(force: bool) -> None:
    if not force and has_data():
        raise NotEmpty("the database already holds data (logins, clubs or players); restore --force "
                       "replaces all of it with the backup")
