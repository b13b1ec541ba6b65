"""A statistic added to a database with history is filled for the old games: the migration that adds its columns
(simulated here: the registry entry registered, its columns added, `migrate`'s post_migrate signal sent with the
migration in the plan) queues the rebuild (ratings.receivers.migrated → ratings.standings.rebuild.rebuild_task;
the tests' task backend runs it at once)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.apps import apps
from django.core.management.sql import emit_post_migrate_signal
from django.db import connection, migrations

from games.rules.protocol import BLACK_ROLES
from ratings.models import PlayerGame, PlayerStats
from ratings.receivers import statistics_added
from ratings.standings import services
from ratings.statistics import registry
from ratings.statistics.registry import GameFacts, SeatFacts, Statistic

from .conftest import generated, make_tournament

KEY = "red_nominations"
POOL = [f"p{i}" for i in range(12)]


def red_nominations(game: GameFacts, seat: SeatFacts) -> int:
    """A statistic the registry does not have: nominations this seat made of a red seat."""
    return sum(1 for n in game.nominations if n.get("by") == seat.number and not n.get("withdrawn")
               and game.roles.get(n.get("nominee")) not in BLACK_ROLES)


def the_migration(fields) -> migrations.Migration:
    migration = migrations.Migration("0099_stats_red_nominations", "ratings")
    migration.operations = [migrations.AddField(model, KEY, field) for model, field in fields]
    return migration


@pytest.fixture
def new_statistic():
    """Adds the registry entry and its two columns, as the entry and its migration would make them (returns the
    migration); removed after the test."""
    fields = []
    models = {"playergame": PlayerGame, "playerstats": PlayerStats}

    def add() -> migrations.Migration:
        statistic = Statistic(KEY, "red nominations", compute=red_nominations, display="integer")
        registry.register(statistic)
        fields.extend([("playergame", registry.FACTS[-1].field()), ("playerstats", statistic.field())])
        for model_name, field in fields:
            field.contribute_to_class(models[model_name], KEY)
            with connection.schema_editor() as editor:
                editor.add_field(models[model_name], field)
        return the_migration(fields)

    yield add
    for model_name, field in fields:
        model = models[model_name]
        with connection.schema_editor() as editor:
            editor.remove_field(model, field)
        model._meta.local_fields.remove(field)
        model._meta._expire_cache()
        delattr(model, KEY)
    apps.clear_cache()
    registry.unregister(KEY)


@pytest.mark.django_db(transaction=True)
def test_a_new_statistic_is_filled_for_the_games_played_before_it(club, new_statistic):
    t = make_tournament(club, "Старая история", start=dt.date(2026, 2, 1))
    generated(t, 6, seed=5, start=dt.date(2026, 2, 1), pool=POOL)
    migration = new_statistic()  # the code and the schema of the next version
    # what the migration leaves: the column at its default for every stored game and table row
    assert set(PlayerGame.objects.values_list(KEY, flat=True)) == {0}
    assert set(PlayerStats.objects.values_list(KEY, flat=True)) == {0}
    assert statistics_added([(migration, False)]) == [KEY]

    emit_post_migrate_signal(0, False, "default", plan=[(migration, False)], apps=apps)

    facts = dict(PlayerGame.objects.values_list("pk", KEY))
    stats = {(s.scope_id, s.player_id): getattr(s, KEY) for s in PlayerStats.objects.all()}
    assert sum(facts.values()) > 0  # filled for the old games
    assert all(v >= 0 for v in stats.values()) and sum(stats.values()) > 0
    services.recompute_all()  # the reference: the same values computed from nothing
    assert {(s.scope_id, s.player_id): getattr(s, KEY) for s in PlayerStats.objects.all()} == stats


@pytest.mark.django_db
def test_a_migration_without_a_statistic_or_a_database_without_history_queues_nothing(club, monkeypatch):
    queued = []
    monkeypatch.setattr("ratings.receivers.enqueue", queued.append)
    other = migrations.Migration("0099_other", "ratings")
    other.operations = [migrations.AddField("season", "note", None)]
    emit_post_migrate_signal(0, False, "default", plan=[(other, False)], apps=apps)
    added = migrations.Migration("0013_stats_black_nominations", "ratings")
    added.operations = [migrations.AddField("playerstats", "black_nominations", None)]
    emit_post_migrate_signal(0, False, "default", plan=[(added, False)], apps=apps)  # no game stored yet
    assert queued == []
    assert statistics_added([(added, True)]) == []  # a migration undone adds nothing
