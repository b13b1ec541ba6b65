"""A season of 200 games known by their results only, imported from one results sheet into a club's empty site:
the season standings, the Elo table and the players' cards equal what this test computes by itself from the
sheet (xcraft: a win 1 point, a loss 0, plus the judge's extra points; Elo per docs/elo.md)."""

import csv
import io
import random
from collections import defaultdict
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from club.models import Club, Player
from games.histories.spreadsheets import COLUMNS
from ratings.models import Season

ROLES = ["К"] * 6 + ["Ш", "Ч", "Ч", "Д"]
GAMES = 200
PLAYERS = [f"Игрок {i:02d}" for i in range(1, 31)]


def _season(seed: int = 7) -> list[dict]:
    """200 games over the season's evenings (five a night), random seats, roles, results and extra points."""
    rng = random.Random(seed)
    games = []
    for n in range(GAMES):
        day = 1 + n // 5
        date = f"2026-{1 + (day - 1) // 28:02d}-{1 + (day - 1) % 28:02d}"
        seats = rng.sample(PLAYERS, 10)
        roles = ROLES[:]
        rng.shuffle(roles)
        result = rng.choice(["red", "red", "black"])
        extras = {seat: rng.choice([Decimal("0.2"), Decimal("0.3"), Decimal("0.4")])
                  for seat in rng.sample(range(1, 11), 2)}
        games.append({"date": date, "event": f"Вечер {date}", "game": 1 + n % 5, "seats": seats, "roles": roles,
                      "result": result, "extras": extras, "fouls": {rng.randrange(1, 11): rng.randrange(1, 4)}})
    return games


def _csv(games: list[dict]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for g in games:
        for seat in range(1, 11):
            extra = g["extras"].get(seat)
            writer.writerow([g["date"], g["event"], 1, g["game"], seat, g["seats"][seat - 1], g["roles"][seat - 1],
                             g["result"], g["fouls"].get(seat, 0), "", "", str(extra) if extra else "",
                             "за игру" if extra else ""])
    return out.getvalue().encode()


def _expected(games: list[dict]) -> tuple[dict, dict]:
    """Per nickname: games, wins, main, extras, total; and the Elo (start 1000, K 20: docs/elo.md)."""
    table: dict[str, dict] = defaultdict(lambda: {"games": 0, "wins": 0, "main": Decimal(0), "extras": Decimal(0)})
    elo: dict[str, float] = defaultdict(lambda: 1000.0)
    for g in games:  # in the order played: by date, then by number (the order they are stored)
        red = [p for p, r in zip(g["seats"], g["roles"], strict=True) if r in "КШ"]
        black = [p for p in g["seats"] if p not in red]
        e_red = 1 / (1 + 10 ** ((sum(elo[p] for p in black) / 3 - sum(elo[p] for p in red) / 7) / 400))
        s_red = 1.0 if g["result"] == "red" else 0.0
        for team, expected, score in ((red, e_red, s_red), (black, 1 - e_red, 1 - s_red)):
            for p in team:
                elo[p] += 20 * (score - expected)
        for seat, nickname in enumerate(g["seats"], start=1):
            row = table[nickname]
            won = (nickname in red) == (g["result"] == "red")
            row["games"] += 1
            row["wins"] += won
            row["main"] += 1 if won else 0
            row["extras"] += g["extras"].get(seat, Decimal(0))
    for row in table.values():
        row["total"] = row["main"] + row["extras"]
    return table, elo


@pytest.mark.django_db
def test_a_season_of_200_summary_games(tmp_path, client, english):
    club = Club.objects.create(name="Архивный клуб")
    season = Season.objects.create(club=club, name="2026", start="2026-01-01", end="2026-12-31")
    games = _season()
    path = tmp_path / "season.csv"
    path.write_bytes(_csv(games))
    call_command("import_protocols", str(path), "--format", "csv", "--club", club.name, "--ruleset", "xcraft",
                 stdout=StringIO(), stderr=StringIO())
    table, elo = _expected(games)

    rows = {r["player"]: r for r in client.get(f"/api/v1/seasons/{season.pk}/standings/").json()["rows"]}
    assert set(rows) == set(table)
    for nickname, want in table.items():
        got = rows[nickname]
        assert (got["games"], got["wins"]) == (want["games"], want["wins"]), nickname
        assert Decimal(str(got["main"])) == want["main"] and Decimal(str(got["extras"])) == want["extras"], nickname
        assert Decimal(str(got["total"])) == want["total"], nickname

    out = StringIO()
    call_command("elo", "--club", club.name, "--format", "json", stdout=out)
    import json

    got_elo = {r["player"]: r for r in json.loads(out.getvalue())["rows"]}
    for nickname, value in elo.items():
        assert got_elo[nickname]["elo"] == pytest.approx(round(value, 2), abs=0.011), nickname
        assert got_elo[nickname]["games"] == table[nickname]["games"]

    for nickname in PLAYERS[:5]:
        player = Player.objects.get(club=club, nickname=nickname)
        card = client.get(f"/api/v1/players/{player.pk}/?season={season.pk}").json()
        want = table[nickname]
        assert (card["games"], card["wins"], card["elo_games"]) == (want["games"], want["wins"], want["games"])
        assert Decimal(str(card["points"])) == want["total"] and card["elo"] == pytest.approx(elo[nickname], abs=0.011)
        page = client.get(f"/players/{player.pk}/").content.decode()
        assert nickname in page
