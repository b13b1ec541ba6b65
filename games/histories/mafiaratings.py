"""MafiaRatings' game format, read and written (docs/imports.md "MafiaRatings"). Pure Python: no Django.

The format is MafiaRatings' documented interchange format for one game (its API answers `{"games": [game, …]}`
in it): ten players in seat order with a role (`civ`, `maf`, `sheriff`/`srf`, `don`), a death (`round`, `type`
day|night|warnings|kickOut|teamKickOut|giveUp, `time`), warnings (a number or a list of moments), the round the
don and the sheriff checked the player, `bonus`, `legacy` (the best move), `comment`, and per round (round 0 is
night 0 and the first day) how the player nominated and voted (a re-vote after a tie and the answer to "kill all"
as a sub-array: `[5, 5, true]`), and, for the black players, whom they shot each night from night 1.

Rounds map onto mafclub/1 phases: MafiaRatings' day r is our `days[r]` (D r+1), its night n (n ≥ 1) our
`nights[n-1]` (N n). `read_game` gives a mafclub/1 game dict (with the voters extension: `voters`,
`revote_voters`, `lift_voters` on a day; `summary` with each seat's `out` when the game holds no rounds) and the
list of what mafclub cannot keep; `write_game` is the inverse for a mafclub/1 game dict.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from games.histories.texts import N_, Msg

ROLE_IN = {"civ": "К", "maf": "Ч", "sheriff": "Ш", "srf": "Ш", "don": "Д"}
ROLE_OUT = {"К": "civ", "Ч": "maf", "Ш": "sheriff", "Д": "don"}
WINNER_IN = {"civ": "red", "maf": "black", "tie": "draw"}
WINNER_OUT = {value: key for key, value in WINNER_IN.items()}
REMOVAL_IN = {"warnings": "fouls", "kickOut": "disqualified", "teamKickOut": "ppk", "giveUp": "disqualified"}
REMOVAL_OUT = {"fouls": "warnings", "disqualified": "kickOut", "ppk": "teamKickOut"}
NIGHT_TIMES = {"start", "arrangement", "shooting", "don", "sheriff"}
AFTER_VOTE_TIMES = {"day kill speaking"}
SOURCE = "mafiaratings"


class FormatError(ValueError):
    """The document is not in MafiaRatings' format; `path` names the place."""

    def __init__(self, path: str, message: Msg):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


@dataclass
class PlayerRef:
    """Who sat in a seat, as the file names him: the external id, e-mail and name (any may be empty)."""

    seat: int
    external_id: str = ""
    email: str = ""
    name: str = ""


@dataclass
class ReadGame:
    game: dict[str, Any]  # a mafclub/1 game (without `number`: the grouping gives it)
    players: list[PlayerRef]
    external_id: str = ""
    group: str = ""  # "tournament 8", "event 7854" or "2016-12-31": games of one group go into one tournament
    started: str = ""  # ISO date-time: the order of the games in a group
    lost: list[str] = field(default_factory=list)  # what mafclub cannot keep (`texts.Msg`), in plain words
    number: int | None = None  # the game's number when the file gives it (the sheets)
    where: str = ""  # where the file holds it, for the import's messages ("cup.xlsx: sheet game 1")


def games_of(data: Any) -> list[Any]:
    """One game object, a list of them, or the API's `{"games": [...]}`."""
    if isinstance(data, dict) and isinstance(data.get("games"), list):
        return list(data["games"])
    if isinstance(data, list):
        return list(data)
    if isinstance(data, dict) and isinstance(data.get("players"), list):
        return [data]
    raise FormatError("document", Msg(N_("expected a game object, a list of games or {\"games\": [...]}")))


# ------------------------------------------------------------------------------------------------------ reading


def _time(value: Any, path: str) -> dt.datetime | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise FormatError(path, Msg(N_("must be a UNIX time or an ISO 8601 date-time, got %(got)s"), got=repr(value)))
    if isinstance(value, (int, float)):
        return dt.datetime.fromtimestamp(value, tz=dt.UTC)
    if isinstance(value, str):
        text = value.strip()
        for fmt in ("%Y%m%dT%H%M%SZ", "%Y-%m-%dT%H:%M:%S%z"):
            try:
                return dt.datetime.strptime(text, fmt).replace(tzinfo=dt.UTC) if fmt.endswith("Z") else \
                    dt.datetime.strptime(text, fmt)
            except ValueError:
                pass
        try:
            parsed = dt.datetime.fromisoformat(text)
        except ValueError:
            pass
        else:
            return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)
    raise FormatError(path, Msg(N_("must be a UNIX time or an ISO 8601 date-time, got %(got)s"), got=repr(value)))


def _seat(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 10 else None


def _death(raw: dict[str, Any], path: str) -> tuple[str, int | None, dict[str, Any]]:
    """(type, round, time) of a player's death; ("", None, {}) when he survived or it is not known."""
    death = raw.get("death")
    if death is None and isinstance(raw.get("dead"), dict):  # the older description: {"night": 2} / {"day": 3}
        old = raw["dead"]
        kind = "night" if "night" in old else "day"
        return kind, old.get(kind), {}
    if death in (None, False):
        return "", None, {}
    if death is True:
        return "unknown", None, {}
    if isinstance(death, int):
        return "unknown", death, {}
    if isinstance(death, str):
        return death, None, {}
    if isinstance(death, dict):
        kind = death.get("type") or "unknown"
        rnd = death.get("round")
        if rnd is not None and (not isinstance(rnd, int) or isinstance(rnd, bool) or rnd < 0):
            raise FormatError(f"{path}.death.round", Msg(N_("must be a round number from 0, got %(got)s"), got=repr(rnd)))
        time = death.get("time")
        return str(kind), rnd, time if isinstance(time, dict) else {}
    raise FormatError(f"{path}.death", Msg(N_("must be true/false, a round, a type or an object, got %(got)s"),
                                          got=repr(death)))


def _warnings(raw: dict[str, Any], path: str) -> int:
    value = raw.get("warnings", 0)
    if isinstance(value, list):
        return len(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise FormatError(f"{path}.warnings", Msg(N_("must be a number or a list of moments, got %(got)s"),
                                             got=repr(value)))


def _rounds(raw: dict[str, Any], key: str, path: str) -> list[Any]:
    """`voting`/`nominating`/`shooting` as a list; the older `{"round_1": 3}` objects are read too."""
    value = raw.get(key)
    if value is None:
        return []
    if isinstance(value, dict):
        numbers = {int(k.split("_")[-1]): v for k, v in value.items() if k.split("_")[-1].isdigit()}
        # the older records number the nights from 0 (`round_0` is night 1's shot)
        return [numbers.get(i) for i in range(max(numbers, default=-1) + 1)]
    if isinstance(value, list):
        return value
    raise FormatError(f"{path}.{key}", Msg(N_("must be a list per round, got %(got)s"), got=repr(value)))


@dataclass
class _Seat:
    number: int
    role: str | None
    death_type: str
    death_round: int | None
    death_time: dict[str, Any]
    voting: list[Any]
    nominating: list[Any]
    shooting: list[Any]
    don: int | None
    sheriff: int | None
    legacy: list[int] | None


def read_game(raw: Any, index: int = 0) -> ReadGame:
    """One MafiaRatings game as a mafclub/1 game dict; raises `FormatError` naming the field."""
    where = f"games[{index}]"
    if not isinstance(raw, dict):
        raise FormatError(where, Msg(N_("a game must be an object")))
    players_raw = raw.get("players")
    if not isinstance(players_raw, list) or len(players_raw) != 10:
        raise FormatError(f"{where}.players", Msg(N_("must list the ten players in seat order")))
    lost: list[str] = []
    seats, refs, seat_dicts = [], [], []
    for i, p in enumerate(players_raw):
        path = f"{where}.players[{i}]"
        if not isinstance(p, dict):
            raise FormatError(path, Msg(N_("a player must be an object")))
        seat, ref, entry = _read_player(p, i + 1, path, lost)
        seats.append(seat)
        refs.append(ref)
        seat_dicts.append(entry)
    started = _time(raw.get("startTime", raw.get("start_time")), f"{where}.startTime")
    ended = _time(raw.get("endTime", raw.get("end_time")), f"{where}.endTime")
    winner = raw.get("winner")
    if winner not in WINNER_IN:
        raise FormatError(f"{where}.winner", Msg(N_("must be civ, maf or tie, got %(got)s"), got=repr(winner)))
    moderator = raw.get("moderator")
    moderator = moderator if isinstance(moderator, dict) else {}
    moment = started or ended
    game: dict[str, Any] = {
        "table": None, "stage": "", "date": moment.date().isoformat() if moment else "",
        "judge": str(moderator.get("name") or ""), "ended_at": ended.isoformat() if ended else "",
        "seats": seat_dicts, "result": WINNER_IN[winner], "colours": [], "adjustments": [], "removals": [],
    }
    if started:
        game["started_at"] = started.isoformat()
    _extras(players_raw, game, lost)
    if any(s.death_type and s.death_round is None for s in seats) or not _has_rounds(seats):
        _summary(seats, game, lost)
    else:
        _rounds_of(seats, game, lost)
    _game_level_losses(raw, lost)
    return ReadGame(game=game, players=refs, external_id=str(raw.get("id") or ""), group=_group(raw, game["date"]),
                    started=started.isoformat() if started else "", lost=lost)


def _game_level_losses(raw: dict[str, Any], lost: list[str]) -> None:
    if raw.get("rating") is False:
        lost.append(Msg(N_("a non-rating game (mafclub counts every finished game)")))
    if any(p.get("arranged") is not None for p in raw["players"] if isinstance(p, dict)):
        lost.append(Msg(N_("the mafia's static arrangement")))


def _group(raw: dict[str, Any], date: str) -> str:
    """The tournament, else the event (a club night), else the day the game was played."""
    if raw.get("tournamentId") is not None:
        return f"tournament {raw['tournamentId']}"
    event = raw.get("eventId", raw.get("event_id"))
    return f"event {event}" if event is not None else date


def _read_player(p: dict[str, Any], number: int, path: str, lost: list[str]) -> tuple[_Seat, PlayerRef, dict]:
    role_raw = p.get("role", "civ")
    if role_raw not in ROLE_IN:
        raise FormatError(f"{path}.role", Msg(N_("must be civ, maf, sheriff or don, got %(got)s"), got=repr(role_raw)))
    kind, rnd, time = _death(p, path)
    fouls = _warnings(p, path)
    if fouls > 4:
        lost.append(Msg(N_("seat %(seat)s: %(fouls)s warnings (mafclub keeps at most 4)"), seat=number, fouls=fouls))
        fouls = 4
    name = str(p.get("name", p.get("nick_name")) or "").strip() or f"#{number}"
    ref = PlayerRef(seat=number, external_id=str(p.get("id", p.get("user_id")) or ""),
                    email=str(p.get("email") or "").strip(), name=name)
    seat = _Seat(number=number, role=ROLE_IN[role_raw], death_type=kind, death_round=rnd, death_time=time,
                 voting=_rounds(p, "voting", path), nominating=_rounds(p, "nominating", path),
                 shooting=_rounds(p, "shooting", path), don=p.get("don", p.get("checked_by_don")),
                 sheriff=p.get("sheriff", p.get("checked_by_srf")), legacy=_legacy(p.get("legacy"), path))
    return seat, ref, {"seat": number, "player": name, "role": ROLE_IN[role_raw], "fouls": fouls}


def _legacy(value: Any, path: str) -> list[int] | None:
    if value is None:
        return None
    if not isinstance(value, list) or any(_seat(v) is None for v in value):
        raise FormatError(f"{path}.legacy", Msg(N_("must be a list of seat numbers 1–10, got %(got)s"), got=repr(value)))
    return list(value)


def _bonuses(p: dict[str, Any]) -> list[Any]:
    bonus = p.get("bonus")
    items = bonus if isinstance(bonus, list) else [] if bonus is None else [bonus]
    if p.get("best_player") is True:
        items.append("bestPlayer")
    return items


def _extras(players_raw: list[dict[str, Any]], game: dict[str, Any], lost: list[str]) -> None:
    """Bonuses (points: the judge's extra points, with the comment), the legacy (best move) of the first night."""
    extras = []
    for number, p in enumerate(players_raw, start=1):
        comment = str(p.get("comment") or "")
        for item in _bonuses(p):
            if isinstance(item, (int, float)) and not isinstance(item, bool):
                extras.append({"seat": number, "points": item, "note": comment})
            else:
                lost.append(Msg(N_("seat %(seat)s: the title %(title)s"), seat=number, title=item))
        if comment and not any(e["seat"] == number for e in extras):
            lost.append(Msg(N_("seat %(seat)s: the moderator's comment"), seat=number))
    game["judge_extras"] = extras


def _has_rounds(seats: list[_Seat]) -> bool:
    return any(s.death_type in ("day", "night") for s in seats) or any(s.voting or s.nominating for s in seats)


def _summary(seats: list[_Seat], game: dict[str, Any], lost: list[str]) -> None:
    """A game known by its results only: no rounds; who left and how, when the round is known."""
    game["summary"] = True
    how = {"night": "killed", "day": "voted"}
    for s, entry in zip(seats, game["seats"], strict=True):
        if s.death_type and s.death_type != "unknown" and s.death_round is not None:
            kind = how.get(s.death_type, "removed")
            entry["out"] = {"how": kind, "round": s.death_round + (1 if kind != "killed" else 0)}
            if kind == "killed" and s.death_round == 1:
                entry["first_night_killed"] = True
        elif s.death_type:
            lost.append(Msg(N_("seat %(seat)s: left the game (when and how are not in the file)"), seat=s.number))
    lost.append(Msg(N_("the rounds (a summary protocol: nominations, votes and nights are not in the file)")))


def _last_round(seats: list[_Seat]) -> tuple[int, bool]:
    """(the last round, whether the game ended at its night)."""
    day_rounds = [len(s.voting) - 1 for s in seats] + [len(s.nominating) - 1 for s in seats]
    day_rounds += [s.death_round for s in seats if s.death_type != "night" and s.death_round is not None]
    night_rounds = [s.death_round for s in seats if s.death_type == "night" and s.death_round is not None]
    night_rounds += [len(s.shooting) for s in seats]
    night_rounds += [r for s in seats for r in (s.don, s.sheriff) if isinstance(r, int)]
    last_day, last_night = max(day_rounds, default=0), max(night_rounds, default=0)
    if last_night > last_day:
        return last_night, True
    return max(last_day, 0), False


def _rounds_of(seats: list[_Seat], game: dict[str, Any], lost: list[str]) -> None:
    last, ends_at_night = _last_round(seats)
    nights = [_night(n, seats, lost) for n in range(1, last + 1)]
    days = [_day(r, seats, lost) for r in range(0, last if ends_at_night else last + 1)]
    game["days"], game["nights"] = days, nights
    game["removals"] = _removals(seats, lost)
    game["best_move"] = None
    for s in seats:
        if s.legacy is not None and s.death_type == "night" and s.death_round == 1:
            game["best_move"] = s.legacy
        elif s.legacy is not None:
            lost.append(Msg(N_("seat %(seat)s: a legacy left at night %(night)s (mafclub keeps night 1's only)"),
                            seat=s.number, night=s.death_round))


def _night(n: int, seats: list[_Seat], lost: list[str]) -> dict[str, Any]:
    killed = [s.number for s in seats if s.death_type == "night" and s.death_round == n]
    shots = {s.number: s.shooting[n - 1] for s in seats if len(s.shooting) >= n and s.shooting[n - 1] is not None}
    if killed and shots and set(shots.values()) != {killed[0]}:
        lost.append(Msg(N_("night %(night)s: each black player's shot (%(shots)s); mafclub keeps the kill"), night=n,
                        shots=_shots(shots)))
    elif not killed and len(set(shots.values())) > 1:
        lost.append(Msg(N_("night %(night)s: each black player's shot (%(shots)s); mafclub keeps the miss"), night=n,
                        shots=_shots(shots)))
    don = [s.number for s in seats if s.don == n]
    sheriff = [s.number for s in seats if s.sheriff == n]
    return {"kill": killed[0] if killed else None, "don_check": don[0] if don else None,
            "sheriff_check": sheriff[0] if sheriff else None}


def _shots(shots: dict[int, Any]) -> str:
    return ", ".join(f"{seat}→{target}" for seat, target in sorted(shots.items()))


def _vote_rounds(value: Any) -> tuple[list[int | None], bool | None]:
    """A player's voting of one day as (the targets of each voting round, the kill-all answer)."""
    if value is None:
        return [], None
    if isinstance(value, list):
        lift = value[-1] if value and isinstance(value[-1], bool) else None
        targets = [_seat(v) for v in (value[:-1] if lift is not None else value)]
        return targets, lift
    return [_seat(value)], None


def _ballots(r: int, seats: list[_Seat]) -> dict[int, tuple[list[int | None], bool | None]]:
    ballots = {s.number: _vote_rounds(s.voting[r]) for s in seats if len(s.voting) > r and s.voting[r] is not None}
    return {k: v for k, v in ballots.items() if v[0] and v[0][0] is not None}


def _tally(candidates: list[int], voters: dict[str, int | None]) -> list[dict[str, int]]:
    return [{"seat": c, "votes": sum(1 for v in voters.values() if v == c)} for c in candidates]


def _revotes(day: dict[str, Any], ballots: dict[int, tuple[list[int | None], bool | None]]) -> None:
    """The re-votes among the tied (the 2nd, 3rd … element of a player's day)."""
    tally = day["votes"]
    for k in range(1, max(len(b[0]) for b in ballots.values())):
        top = max(x["votes"] for x in tally)
        tied = [t["seat"] for t in tally if t["votes"] == top]
        revoters = {str(seat): b[0][k] for seat, b in sorted(ballots.items()) if len(b[0]) > k and b[0][k] is not None}
        tally = _tally(tied, revoters)
        day["revotes"].append(tally)
        day.setdefault("revote_voters", []).append(revoters)


def _day(r: int, seats: list[_Seat], lost: list[str]) -> dict[str, Any]:
    day: dict[str, Any] = {"revotes": [], "lift": None,
                           "out": [s.number for s in seats if s.death_type == "day" and s.death_round == r]}
    nominations = [{"by": s.number, "nominee": _seat(s.nominating[r])} for s in seats
                   if len(s.nominating) > r and _seat(s.nominating[r]) is not None]
    if any(s.nominating for s in seats):
        day["nominations"] = nominations
    ballots = _ballots(r, seats)
    if not ballots:
        return day
    nominees: list[int] = [n["nominee"] for n in nominations if n["nominee"] is not None]
    voted = {b[0][0] for b in ballots.values() if b[0][0] is not None}
    candidates = list(dict.fromkeys(nominees + sorted(voted - set(nominees))))
    voters: dict[str, int | None] = {str(seat): b[0][0] for seat, b in sorted(ballots.items())}
    day["voters"] = voters
    day["votes"] = _tally(candidates, voters)
    _revotes(day, ballots)
    lift = {str(seat): b[1] for seat, b in sorted(ballots.items()) if b[1] is not None}
    if lift:
        day["lift_voters"] = lift
        day["lift"] = {"for": sum(1 for v in lift.values() if v)}
    elif len(day["out"]) > 1:
        lost.append(Msg(N_("day %(day)s: who voted to lift all (only that they left)"), day=r + 1))
    return day


def _removals(seats: list[_Seat], lost: list[str]) -> list[dict[str, Any]]:
    removals = []
    for s in seats:
        if s.death_type not in REMOVAL_IN:
            continue
        time = s.death_time or {}
        given = time.get("round", s.death_round)
        rnd = given if isinstance(given, int) else 0
        at_night = time.get("time") in NIGHT_TIMES and rnd > 0
        removal = {"seat": s.number, "reason": REMOVAL_IN[s.death_type], "at": f"N{rnd}" if at_night else f"D{rnd + 1}"}
        if time.get("time") in AFTER_VOTE_TIMES:
            removal["after_vote"] = True
        if s.death_type == "giveUp":
            removal["note"] = "gave up"
            lost.append(Msg(N_("seat %(seat)s: gave up (kept as a removal by the judge)"), seat=s.number))
        removals.append(removal)
    return removals
