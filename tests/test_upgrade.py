"""Upgrades lose nothing: a database of each recorded release (tests/upgrade/releases.py: its migration leaves and
a fixture of every row it held), loaded at that release's schema and brought to today's with `manage.py migrate`,
shows the standings and Elo that release showed, keeps its audit trail row for row, and gives the same standings,
Elo and protocols as the release's own exports imported fresh into an empty database of today's schema."""

from __future__ import annotations

import json

import pytest

from tests.own_db import KINDS, env_for, manage, own_database
from tests.upgrade.release import read
from tests.upgrade.releases import RELEASES

pytestmark = pytest.mark.slow

UPGRADED = """
import json
from django.core.management import call_command
from tests.upgrade import release
from tests.upgrade.releases import RELEASES

r = next(r for r in RELEASES if r.name == {name!r})
fixture = release.read(r.fixture)
release.migrate_to(r.leaves)
written = release.load(fixture)
call_command("migrate", verbosity=0)  # the upgrade, as an admin runs it
print(json.dumps({{"written": written, "snapshot": release.snapshot(r.leaves)}}))
"""

FRESH = """
import json
from tests.upgrade import release
from tests.upgrade.releases import RELEASES

r = next(r for r in RELEASES if r.name == {name!r})
print(json.dumps(release.snapshot(r.leaves)))
"""


def _last_json(out: str) -> dict:
    return json.loads(out.splitlines()[-1])


def test_each_release_fixture_is_small_and_at_its_recorded_leaves():
    for r in RELEASES:
        assert r.fixture.stat().st_size < 2_000_000, r.name
        assert read(r.fixture)["leaves"] == r.leaves, r.name


@pytest.mark.parametrize("release", RELEASES, ids=lambda r: r.name)
@pytest.mark.parametrize("kind", KINDS)
def test_a_release_database_migrated_to_today_loses_nothing(kind, release, tmp_path):
    fixture = read(release.fixture)
    before = fixture["snapshot"]
    with own_database(kind, tmp_path, "upgrade") as url:
        env = env_for(url, TASKS_BACKEND="immediate")
        upgraded = _last_json(manage(env, "shell", "-c", UPGRADED.format(name=release.name)).stdout)
    assert upgraded["written"] == sum(len(t["rows"]) for t in fixture["tables"].values())
    after = upgraded["snapshot"]
    assert after["standings"] == before["standings"]
    assert after["elo"] == before["elo"]
    assert after["audit"] == before["audit"]  # the judges' action log and every history row, as they were
    assert sum(len(t["rows"]) for t in after["audit"].values()) > 100 and after["audit"]["games.gameaction"]["rows"]

    with own_database(kind, tmp_path, "upgrade_fresh") as url:
        env = env_for(url, TASKS_BACKEND="immediate")
        manage(env, "migrate", "-v", "0")
        files = []
        for n, document in enumerate(before["protocols"].values()):
            files.append(tmp_path / f"export-{n}.json")
            files[-1].write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
        club = next(iter(before["elo"]))
        manage(env, "import_protocols", *map(str, files), "--club", club)
        fresh = _last_json(manage(env, "shell", "-c", FRESH.format(name=release.name)).stdout)
    assert fresh["standings"] == after["standings"]
    # A game's `version` in the export counts the writes to that database's row (the import guard compares it);
    # it is not part of the protocol, and a fresh import starts its own count.
    assert _protocols(fresh) == _protocols(after)
    assert fresh["elo"] == after["elo"]


def _protocols(snapshot: dict) -> dict:
    return {name: {**document, "games": [{k: v for k, v in game.items() if k != "version"}
                                          for game in document["games"]]}
            for name, document in snapshot["protocols"].items()}
