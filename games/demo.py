"""The games part of the demo club: a scored demo tournament (called by `manage.py seed_demo`)."""

from __future__ import annotations

import datetime as dt
import json
import random

from django.contrib.auth import get_user_model
from django.utils import timezone

from club.models import Club
from club.selectors import known_name
from games.models import Day, Game, RuleSetVersion, Seat, Tournament
from games.protocol.services.imports import import_documents
from games.rules.generate import generate_game
from games.rules.interchange import FORMAT, protocol_to_dict
from games.rules.protocol import CITIZEN, DON, MAFIA, SHERIFF
from games.rules.ruleset import get_preset

DEMO_TOURNAMENT = "Демо-кубок «Полночь» 2026"
DEMO_RULESET = "cml"
DEMO_GAMES = 36


def seed_games(club: Club, *, games: int = DEMO_GAMES, stdout=None) -> Tournament:
    """A tournament of `games` random valid games among the club's players; idempotent (kept if present)."""
    if club.default_ruleset_id is None:
        club.default_ruleset = RuleSetVersion.objects.filter(slug=DEMO_RULESET, club__isnull=True).order_by(
            "-version").first()
        club.save(update_fields=["default_ruleset"])
    existing = Tournament.objects.filter(club=club, name=DEMO_TOURNAMENT).first()
    if existing is not None:
        seed_live_game(club, existing, stdout=stdout)
        return existing
    rng = random.Random(2026)
    nicknames = list(club.players.filter(active=True).order_by("id").values_list("nickname", flat=True))
    ruleset = get_preset(DEMO_RULESET)
    start = dt.date(2026, 11, 7)
    protocols = []
    for number in range(1, games + 1):
        table_players = rng.sample(nicknames, 10)
        protocol = generate_game(rng, ruleset, players=table_players, number=number)
        day = start + dt.timedelta(days=7 * ((number - 1) // 12))
        protocol.date = day.isoformat()
        protocol.table = 1 + (number - 1) % 2
        protocol.stage = "Отбор"
        protocol.judge = "Судья Иванов" if protocol.table == 1 else "Судья Петрова"
        protocol.ended_at = f"{day.isoformat()}T{19 + (number - 1) % 12 // 3:02d}:{(number * 7) % 60:02d}:00+03:00"
        protocols.append(protocol)
    document = {
        "format": FORMAT,
        "tournament": {"name": DEMO_TOURNAMENT, "ruleset": DEMO_RULESET, "difficult_roles": [DON, SHERIFF],
                       "stages": ["Отбор", "Финал"]},
        "games": [protocol_to_dict(p) for p in protocols],
    }
    report = import_documents(documents=[("demo", json.dumps(document, ensure_ascii=False))], club=club)
    tournament = report.tournaments[0]
    tournament.start_date = start
    tournament.end_date = start + dt.timedelta(days=21)
    tournament.save(update_fields=["start_date", "end_date"])
    if stdout is not None:
        stdout.write(f"Demo tournament: {tournament.name} — {report.created} scored games")
    seed_live_game(club, tournament, stdout=stdout)
    return tournament


DEMO_LIVE_NUMBER = DEMO_GAMES + 1  # the demo game in progress: the next game after the scored ones


def seed_live_game(club: Club, tournament: Tournament, *, stdout=None):
    """One game in progress, seats and roles assigned, judged by "judge1" when that login exists; idempotent."""
    existing = Game.objects.filter(tournament=tournament, number=DEMO_LIVE_NUMBER).first()
    if existing is not None:
        return existing
    judge = get_user_model().objects.filter(username="judge1").first()
    players = list(club.players.filter(active=True).order_by("id")[10:20])
    if len(players) < 10:
        return None
    roles = [CITIZEN, DON, CITIZEN, CITIZEN, MAFIA, CITIZEN, SHERIFF, CITIZEN, MAFIA, CITIZEN]
    game = Game.objects.create(
        club=club, tournament=tournament, ruleset=tournament.ruleset, number=DEMO_LIVE_NUMBER, table=3,
        stage="Финал", date=timezone.localdate(), judge=judge,
        judge_name=known_name(judge, club), status=Game.Status.IN_PROGRESS,
        started_at=timezone.now(), phase="D1")
    Seat.objects.bulk_create([Seat(game=game, number=n, player=p, role=r)
                              for n, (p, r) in enumerate(zip(players, roles, strict=True), start=1)])
    Day.objects.create(game=game, index=1, nominations=[])
    if stdout is not None:
        stdout.write(f"Demo game in progress: /games/{game.pk}/judge/ (judge: {judge.username if judge else '-'})")
    return game
