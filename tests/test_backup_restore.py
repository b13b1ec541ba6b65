"""`manage.py backup FILE` then `manage.py restore FILE` into an empty database gives identical standings, Elo
and protocols (SQLite file and PostgreSQL database of the test's own); restore refuses a database holding data
unless --force, and names a file of the wrong kind."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from tests.own_db import BASE_DIR, KINDS, env_for, manage, own_database, query

pytestmark = pytest.mark.slow

# Everything a club reads (standings, Elo, protocols, audit trail) and every row of every table.
SNAPSHOT = """
import json
from tests.upgrade import release

leaves = release.current_leaves()
print(json.dumps({"reads": release.snapshot(leaves), "rows": release.tables(leaves)}))
"""


def snapshot(env: dict) -> dict:
    return json.loads(manage(env, "shell", "-c", SNAPSHOT).stdout.splitlines()[-1])


def seeded(env: dict, tmp_path) -> None:
    """The demo club and a generated tournament of 30 games imported into it."""
    manage(env, "migrate", "-v", "0")
    manage(env, "seed_demo")
    games = tmp_path / "games.json"
    subprocess.run([sys.executable, "bench/generate.py", "30", "--seed", "7", "-o", str(games)], cwd=BASE_DIR,
                   check=True, timeout=120)
    club = query(env["DATABASE_URL"], "SELECT name FROM club_club ORDER BY id")[0][0]
    manage(env, "import_protocols", str(games), "--club", club)


@pytest.mark.parametrize("kind", KINDS)
def test_a_backup_restored_into_an_empty_database_gives_identical_standings_elo_and_protocols(kind, tmp_path):
    if kind == "postgres" and not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.skip("pg_dump or pg_restore is not installed (Debian: postgresql-client)")
    backup = tmp_path / "site.backup"
    with own_database(kind, tmp_path, "backup_source") as source_url:
        source = env_for(source_url)
        seeded(source, tmp_path)
        before = snapshot(source)
        assert len(before["reads"]["standings"]) >= 2 and before["reads"]["elo"] and before["rows"]["games.game"]
        written = manage(source, "backup", str(backup))
        assert written.stdout.startswith(f"{backup}: backup of the ") and backup.stat().st_size > 0

    with own_database(kind, tmp_path, "backup_target") as target_url:
        target = env_for(target_url)
        restored = manage(target, "restore", str(backup))
        assert "restored into the" in restored.stdout
        assert snapshot(target) == before

        again = manage(target, "restore", str(backup), check=False)  # it holds data now
        assert again.returncode == 2 and "--force" in again.stderr and "already holds data" in again.stderr
        manage(target, "shell", "-c", "from club.models import Club; Club.objects.update(city='Сломано')")
        refused = manage(target, "restore", str(backup), check=False)
        assert refused.returncode == 2
        assert query(target_url, "SELECT DISTINCT city FROM club_club") == [("Сломано",)]  # unchanged
        manage(target, "restore", str(backup), "--force")
        assert snapshot(target) == before

        wrong = tmp_path / "wrong.backup"
        wrong.write_bytes(b"not a backup at all" * 10)
        bad = manage(target, "restore", str(wrong), check=False)
        assert bad.returncode == 1 and f"{wrong}: not a" in bad.stderr and "Traceback" not in bad.stderr
        missing = manage(target, "restore", str(tmp_path / "nothing.backup"), check=False)
        assert missing.returncode == 1 and "no such file" in missing.stderr
        assert snapshot(target) == before
