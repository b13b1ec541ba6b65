"""Writing a mafclub/1 game dict in MafiaRatings' game format (the inverse of `mafiaratings.read_game`).

Pure Python. What MafiaRatings' format cannot carry (the order of the nominations, a withdrawn nomination, the
judge's penalties by clause, "colour for the record", the vote counts of a day whose voters are not known) is
named in the list `write_game` returns beside the game.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from games.histories.mafiaratings import REMOVAL_OUT, ROLE_OUT, WINNER_OUT

FEATURES = "gsdutclhvknw"  # don and sheriff checks, death round/type/time, legacy, shooting, votes, kill-all, noms, warnings


def _number(value: Any) -> int | float:
    number = Decimal(str(value))
    return int(number) if number == number.to_integral_value() else float(number)


def _deaths(game: dict[str, Any]) -> dict[int, dict[str, Any]]:
    deaths: dict[int, dict[str, Any]] = {}
    for r, day in enumerate(game.get("days") or []):
        for seat in day.get("out") or []:
            deaths[seat] = {"round": r, "type": "day"}
    for n, night in enumerate(game.get("nights") or [], start=1):
        if night.get("kill") is not None:
            deaths[night["kill"]] = {"round": n, "type": "night"}
    for removal in game.get("removals") or []:
        at = removal["at"]
        night = at.startswith("N")
        rnd = int(at[1:]) if night else int(at[1:]) - 1
        kind = "giveUp" if removal.get("note") == "gave up" else REMOVAL_OUT[removal["reason"]]
        time: dict[str, Any] = {"round": rnd, "time": "shooting" if night else
                                ("day kill speaking" if removal.get("after_vote") else "speaking")}
        deaths[removal["seat"]] = {"round": rnd, "type": kind, "time": time}
    return deaths


def _summary_deaths(game: dict[str, Any]) -> dict[int, dict[str, Any]]:
    kinds = {"killed": "night", "voted": "day", "removed": "kickOut"}
    deaths = {}
    for s in game["seats"]:
        out = s.get("out")
        if out:
            kind = kinds[out["how"]]
            deaths[s["seat"]] = {"round": out["round"] - (0 if kind == "night" else 1), "type": kind}
    return deaths


def _votes(game: dict[str, Any], lost: list[str]) -> dict[int, list[Any]]:
    """Each seat's voting list per round, from the days' voters."""
    days = game.get("days") or []
    voting: dict[int, list[Any]] = {}
    for r, day in enumerate(days):
        voters = day.get("voters")
        if voters is None:
            if day.get("votes"):
                lost.append(f"day {r + 1}: the vote counts (MafiaRatings keeps each player's vote only)")
            continue
        revoters = day.get("revote_voters") or []
        lift = day.get("lift_voters") or {}
        for key, target in voters.items():
            ballot = [target] + [rv[key] for rv in revoters if key in rv]
            if key in lift:
                ballot.append(bool(lift[key]))
            voting.setdefault(int(key), [None] * len(days))[r] = ballot[0] if len(ballot) == 1 else ballot
    return _trimmed(voting)


def _nominations(game: dict[str, Any], lost: list[str]) -> dict[int, list[Any]]:
    days = game.get("days") or []
    nominating: dict[int, list[Any]] = {}
    for r, day in enumerate(days):
        for n in day.get("nominations") or []:
            if n.get("withdrawn"):
                lost.append(f"day {r + 1}: seat {n['by']}'s withdrawn nomination of {n['nominee']}")
                continue
            nominating.setdefault(n["by"], [None] * len(days))[r] = n["nominee"]
    if any(day.get("nominations") for day in days):
        lost.append("the order of the nominations (MafiaRatings keeps who nominated whom)")
    return _trimmed(nominating)


def _trimmed(rounds: dict[int, list[Any]]) -> dict[int, list[Any]]:
    """Each list without its trailing nulls (MafiaRatings writes a player's rounds up to his last)."""
    for values in rounds.values():
        while values and values[-1] is None:
            values.pop()
    return rounds


def _bonus(game: dict[str, Any], seat: int) -> tuple[Any, str]:
    extras = [e for e in game.get("judge_extras") or [] if e["seat"] == seat]
    if not extras:
        return None, ""
    total = sum(Decimal(str(e["points"])) for e in extras)
    return _number(total), "; ".join(e.get("note") or "" for e in extras if e.get("note"))


def write_game(game: dict[str, Any], *, external_id: str = "", players: dict[int, dict[str, Any]] | None = None,
               started_at: str = "", group: dict[str, Any] | None = None) -> tuple[dict[str, Any], list[str]]:
    """`game` (mafclub/1) in MafiaRatings' format, and what that format cannot carry. `players` gives per seat the
    `id` and `email` to write beside the nickname; `group` the `eventId`/`tournamentId`."""
    lost: list[str] = []
    summary = bool(game.get("summary"))
    deaths = _summary_deaths(game) if summary else _deaths(game)
    voting, nominating = ({}, {}) if summary else (_votes(game, lost), _nominations(game, lost))
    nights = game.get("nights") or []
    checks = {("don", n.get("don_check")): i for i, n in enumerate(nights, start=1)}
    checks.update({("sheriff", n.get("sheriff_check")): i for i, n in enumerate(nights, start=1)})
    black = {s["seat"] for s in game["seats"] if s.get("role") in ("Ч", "Д")}
    context = {"deaths": deaths, "voting": voting, "nominating": nominating, "checks": checks, "black": black}
    out_players = [_player(s, game, (players or {}).get(s["seat"]) or {}, context) for s in game["seats"]]
    for key, what in (("colours", "colour for the record"), ("adjustments", "the judge's penalties by clause")):
        if game.get(key):
            lost.append(what)
    out: dict[str, Any] = {
        "id": external_id or None, **(group or {}),
        "features": "" if summary else FEATURES,
        "startTime": started_at or game.get("started_at") or (f"{game['date']}T00:00:00+00:00" if game.get("date") else None),
        "endTime": game.get("ended_at") or None,
        "winner": WINNER_OUT.get(game.get("result") or "", None),
        "moderator": {"name": game.get("judge") or ""},
        "players": out_players,
    }
    return {key: value for key, value in out.items() if value is not None}, lost


def _player(s: dict[str, Any], game: dict[str, Any], ids: dict[str, Any], c: dict[str, Any]) -> dict[str, Any]:
    number = s["seat"]
    nights = game.get("nights") or []
    player: dict[str, Any] = {**ids, "name": s["player"], "role": ROLE_OUT.get(s.get("role") or "К", "civ")}
    if number in c["deaths"]:
        player["death"] = c["deaths"][number]
    if s.get("fouls"):
        player["warnings"] = s["fouls"]
    for kind in ("don", "sheriff"):
        if (kind, number) in c["checks"]:
            player[kind] = c["checks"][(kind, number)]
    bonus, comment = _bonus(game, number)
    if bonus is not None:
        player["bonus"] = bonus
    if comment:
        player["comment"] = comment
    if game.get("best_move") is not None and nights and nights[0].get("kill") == number:
        player["legacy"] = list(game["best_move"])
    for key in ("voting", "nominating"):
        if number in c[key]:
            player[key] = c[key][number]
    if number in c["black"] and nights:
        player["shooting"] = _shooting(number, game)
    return player


def _shooting(number: int, game: dict[str, Any]) -> list[Any]:
    """A black player's shot each night he was at the table: the night's kill (mafclub keeps no single shots)."""
    shots: list[Any] = []
    gone = _deaths(game).get(number)
    for n, night in enumerate(game.get("nights") or [], start=1):
        if gone and gone["round"] < n:
            break
        shots.append(night.get("kill"))
    while shots and shots[-1] is None:
        shots.pop()
    return shots
