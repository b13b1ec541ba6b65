"""The system checks a newcomer sees: no SQLite W040 for the site's covering index (club.indexes.CoveringIndex keeps
the INCLUDE columns in the key there), and club.W040 in its place for an index that would really lose them."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connections, models
from django.test.utils import isolate_apps

from club.checks import dropped_include
from club.indexes import CoveringIndex

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


@isolate_apps("club")
def test_an_include_index_that_is_not_a_covering_index_is_still_flagged_where_include_is_missing():
    class Plain(models.Model):  # noqa: DJ008
        a = models.IntegerField()
        b = models.IntegerField()

        class Meta:
            app_label = "club"
            indexes = [models.Index(fields=["a"], include=["b"], name="plain_a_b")]

    class Covered(models.Model):  # noqa: DJ008
        a = models.IntegerField()
        b = models.IntegerField()

        class Meta:
            app_label = "club"
            indexes = [CoveringIndex(fields=["a"], include=["b"], name="covered_a_b")]

    problems = dropped_include([Plain, Covered], ["default"])
    if connections["default"].features.supports_covering_indexes:  # PostgreSQL: INCLUDE is kept
        assert problems == []
        pytest.skip("this database supports INCLUDE: nothing to flag")
    assert [(p.id, p.obj) for p in problems] == [("club.W040", Plain)]
    assert "plain_a_b" in problems[0].msg
