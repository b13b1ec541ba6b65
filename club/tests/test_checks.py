"""The system checks a newcomer sees: no SQLite W040 (an index with INCLUDE columns, which SQLite drops): the player's
games index holds its columns in the key (ratings.models.PlayerGame), and no check is silenced for it."""

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def _manage(env: dict, *args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def test_migrate_check_and_seed_demo_print_no_w040_on_sqlite(tmp_path):
    env = {**{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE"}},
           "DATABASE_URL": f"sqlite:///{tmp_path / 'new.sqlite3'}", "DJANGO_SETTINGS_MODULE": "club.settings"}
    outputs = {
        "migrate": _manage(env, "migrate", "--no-input"),
        "check": _manage(env, "check", "--database", "default", "--fail-level", "WARNING"),
        "seed_demo": _manage(env, "seed_demo"),
    }
    for command, output in outputs.items():
        assert "W040" not in output and "non-key columns" not in output, (command, output)
    assert "no issues" in outputs["check"]
