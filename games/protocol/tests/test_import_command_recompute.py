"""`manage.py import_protocols` finishes the rating recomputes it queued (the command line runs no worker of its
own otherwise), so `manage.py elo --format json` right after it shows the rows; `elo` and `standings` say when
the figures are still being recomputed."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from games.demo import DEMO_TOURNAMENT
from games.models import Tournament
from ratings.models import PendingTail

pytestmark = pytest.mark.django_db(transaction=True)
DB_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


GAMES = 60  # more than the Elo and history tails recomputed inside the import (INLINE_TAIL): queued for a worker


@pytest.fixture
def export_file(tmp_path):
    """A tournament of GAMES finished games (the demo's first finished game, played again and again)."""
    call_command("seed_demo", stdout=StringIO())
    demo = tmp_path / "demo.json"
    call_command("export_protocols", "--tournament", DEMO_TOURNAMENT, "--output", str(demo),
                 stdout=StringIO())
    document = json.loads(demo.read_text())
    game = next(g for g in document["games"] if g["status"] == "finished" and not g.get("protests"))
    for key in ("version", "signed_at", "replay_of", "protests"):
        game.pop(key, None)
    for seat in game["seats"]:  # a file without the seats' clubs: the new club's own players (docs/persons.md)
        seat.pop("club", None)
    document["games"] = [{**game, "number": n, "table": 1 + n % 3} for n in range(1, GAMES + 1)]
    document["tournament"].pop("lots", None)
    out = tmp_path / "cup.json"
    out.write_text(json.dumps(document, ensure_ascii=False))
    return out


def _elo(*, stderr=None) -> dict:
    out = StringIO()
    call_command("elo", "--format", "json", "--club", "Новый клуб", stdout=out, stderr=stderr or StringIO())
    return json.loads(out.getvalue())


def test_a_command_line_import_finishes_its_own_recompute(export_file, settings):
    settings.TASKS = DB_TASKS
    out = StringIO()
    call_command("import_protocols", str(export_file), "--club", "Новый клуб", stdout=out, stderr=StringIO())
    assert _elo()["rows"]  # was {"rows": []}: the recompute waited for a worker the command line does not run
    assert not PendingTail.objects.exists()
    assert "Ratings recomputed." in out.getvalue()


def test_elo_and_standings_say_when_the_figures_are_still_being_recomputed(export_file, settings):
    settings.TASKS = DB_TASKS
    call_command("import_protocols", str(export_file), "--club", "Новый клуб", "--no-wait", stdout=StringIO(),
                 stderr=StringIO())
    assert PendingTail.objects.exists()
    err = StringIO()
    _elo(stderr=err)
    assert "still being recomputed" in err.getvalue()
    name = Tournament.objects.filter(club__name="Новый клуб").get().name
    err = StringIO()
    call_command("standings", "--tournament", name, "--club", "Новый клуб", stdout=StringIO(), stderr=err)
    assert "still being recomputed" in err.getvalue()
