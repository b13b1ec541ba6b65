"""club.backups without a subprocess: pg_dump's version against the server's, and refusals that name the reason
(the round trip through real databases is tests/test_backup_restore.py)."""

from __future__ import annotations

import types

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from club import backups


def test_the_pg_dump_version_is_read_from_its_banner():
    assert backups._major("pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)") == 15
    assert backups._major("pg_dump (PostgreSQL) 9.6.24") == 9


def test_a_pg_dump_older_than_the_server_is_refused_with_the_client_to_install(monkeypatch, tmp_path):
    monkeypatch.setattr(backups, "connection", types.SimpleNamespace(vendor="postgresql"))
    monkeypatch.setattr(backups, "pg_versions", lambda tool="pg_dump": (14, 16))
    with pytest.raises(backups.BackupError, match="pg_dump 14 cannot dump a PostgreSQL 16 server: install "
                                                  "postgresql-client-16"):
        backups.backup(tmp_path / "site.backup")
    assert list(tmp_path.iterdir()) == []  # no half-written file left


@pytest.mark.django_db
def test_restore_names_a_missing_file_and_a_folder_that_is_not_there(tmp_path):
    with pytest.raises(CommandError, match="no such file") as missing:
        call_command("restore", str(tmp_path / "none.backup"))
    assert missing.value.returncode == 1
    with pytest.raises(CommandError, match="no such folder"):
        call_command("backup", str(tmp_path / "nowhere" / "site.backup"))
