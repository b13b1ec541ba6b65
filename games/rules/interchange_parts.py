"""Reading and writing the parts of a `mafclub/1` game that carry a day's votes and a summary protocol's seats
(the format itself is described in `interchange.py`). Pure Python.

- a day: `nominations`, `votes`, `revotes`, `lift` {"for"}, `out`, and, when known, who voted for whom:
  `voters` {"<voter seat>": <candidate seat>} for the main round, `revote_voters` [{…}, …] parallel to `revotes`,
  `lift_voters` {"<voter seat>": true|false} for the lift vote (docs/rules.md I47–I50);
- a summary game's seat: `first_night_killed` (true or false; absent: not said) and `out`
  {"how": "killed"|"voted"|"removed", "round": N (optional)} (docs/rules.md I46).
"""

from __future__ import annotations

from typing import Any

from .i18n import N_
from .protocol import OUT_HOWS, Day, Nomination, Protocol, SeatEntry, SeatOut, Tally
from .reader import Reader


def _tallies(r: Reader, value: Any, path: str) -> list[Tally] | None:
    if value is None:
        return None
    tallies = []
    for item_path, obj in r.objects(value, path):
        seat = r.seat_no(obj.get("seat"), f"{item_path}.seat")
        votes = r.integer(obj.get("votes"), f"{item_path}.votes", low=0, high=10)
        if seat is not None and votes is not None:
            tallies.append(Tally(seat=seat, votes=votes))
    return tallies


def _voter_seat(r: Reader, key: Any, path: str) -> int | None:
    """A voter map's key: a seat number written as text ("3"), once."""
    if not isinstance(key, str) or key not in {str(n) for n in range(1, 11)}:
        r.fail(path, N_("a voter is a seat number 1..10 written as text, got %(got)s"), got=repr(key))
        return None
    return int(key)


def voter_map(r: Reader, value: Any, path: str) -> dict[int, int] | None:
    """`{"<voter seat>": <candidate seat>}`: each voter once (docs/rules.md I48)."""
    if value is None:
        return None
    obj = r.obj(value, path)
    if obj is None:
        return None
    voters: dict[int, int] = {}
    for key, candidate in obj.items():
        voter = _voter_seat(r, key, f"{path}.{key}")
        seat = r.seat_no(candidate, f"{path}.{key}")
        if voter is not None and seat is not None:
            voters[voter] = seat
    return voters


def lift_map(r: Reader, value: Any, path: str) -> dict[int, bool] | None:
    """`{"<voter seat>": true|false}`: each player's answer in the lift vote (docs/rules.md I49)."""
    if value is None:
        return None
    obj = r.obj(value, path)
    if obj is None:
        return None
    answers: dict[int, bool] = {}
    for key, raised in obj.items():
        voter = _voter_seat(r, key, f"{path}.{key}")
        if not isinstance(raised, bool):
            r.fail(f"{path}.{key}", N_("docs/rules.md I49: the lift vote is yes or no per player (true or false), "
                                       "got %(got)s"), got=repr(raised))
        elif voter is not None:
            answers[voter] = raised
    return answers


def read_day(r: Reader, value: Any, path: str) -> Day:
    obj = r.obj(value, path) or {}
    day = Day()
    if obj.get("nominations") is not None:
        day.nominations = []
        for item_path, nom in r.objects(obj.get("nominations"), f"{path}.nominations"):
            by = r.seat_no(nom.get("by"), f"{item_path}.by")
            nominee = r.seat_no(nom.get("nominee"), f"{item_path}.nominee")
            withdrawn = bool(nom.get("withdrawn", False))
            if by is not None and nominee is not None:
                day.nominations.append(Nomination(by=by, nominee=nominee, withdrawn=withdrawn))
    day.votes = _tallies(r, obj.get("votes"), f"{path}.votes")
    revotes = r.array(obj.get("revotes"), f"{path}.revotes") or []
    day.revotes = [t for i, rv in enumerate(revotes) if (t := _tallies(r, rv, f"{path}.revotes[{i}]")) is not None]
    lift = obj.get("lift")
    if lift is not None:
        lift_obj = r.obj(lift, f"{path}.lift")
        if lift_obj is not None:
            day.lift = r.integer(lift_obj.get("for"), f"{path}.lift.for", low=0, high=10)
    if "out" not in obj:
        r.fail(f"{path}.out", N_("is required: the seats that left by this day's vote or lift ([] when nobody did)"))
    out = r.array(obj.get("out"), f"{path}.out") or []
    day.out = [n for i, raw in enumerate(out) if (n := r.seat_no(raw, f"{path}.out[{i}]")) is not None]
    day.voters = voter_map(r, obj.get("voters"), f"{path}.voters")
    revote_voters = r.array(obj.get("revote_voters"), f"{path}.revote_voters")
    if revote_voters is not None:
        day.revote_voters = [voter_map(r, rv, f"{path}.revote_voters[{i}]") or {}
                             for i, rv in enumerate(revote_voters)]
    day.lift_voters = lift_map(r, obj.get("lift_voters"), f"{path}.lift_voters")
    return day


def read_summary_seat(r: Reader, s: dict[str, Any], path: str, entry: SeatEntry, *, summary: bool) -> None:
    """A summary seat's `first_night_killed` and `out` onto `entry`; refused on a game with its days and nights."""
    given = [key for key in ("first_night_killed", "out") if s.get(key) is not None]
    if given and not summary:
        r.fail(f"{path}.{given[0]}", N_("docs/rules.md I46: only a summary protocol (\"summary\": true) carries it; "
                                        "a full protocol tells it by its days and nights"))
        return
    marker = s.get("first_night_killed")
    if marker is not None and not isinstance(marker, bool):
        r.fail(f"{path}.first_night_killed", N_("must be true or false, got %(got)s"), got=repr(marker))
    elif marker is not None:
        entry.first_night_killed = marker
    if s.get("out") is None:
        return
    out = r.obj(s.get("out"), f"{path}.out")
    if out is None:
        return
    how = out.get("how")
    if how not in OUT_HOWS:
        r.fail(f"{path}.out.how", N_("must be one of %(allowed)s, got %(got)s"), allowed=", ".join(OUT_HOWS),
               got=repr(how))
        return
    entry.out = SeatOut(how=str(how), round=r.integer(out.get("round"), f"{path}.out.round", low=1, high=99,
                                                     optional=True))


def _tally_rows(ts: list[Tally]) -> list[dict[str, int]]:
    return [{"seat": t.seat, "votes": t.votes} for t in ts]


def _voters_json(voters: dict[int, Any]) -> dict[str, Any]:
    return {str(seat): value for seat, value in sorted(voters.items())}


def day_to_dict(d: Day) -> dict[str, Any]:
    day: dict[str, Any] = {}
    if d.nominations is not None:
        day["nominations"] = [
            {"by": n.by, "nominee": n.nominee, **({"withdrawn": True} if n.withdrawn else {})}
            for n in d.nominations
        ]
    if d.votes is not None:
        day["votes"] = _tally_rows(d.votes)
    day["revotes"] = [_tally_rows(r) for r in d.revotes]
    day["lift"] = {"for": d.lift} if d.lift is not None else None
    day["out"] = list(d.out)
    if d.voters is not None:
        day["voters"] = _voters_json(d.voters)
    if d.revote_voters is not None:
        day["revote_voters"] = [_voters_json(v) for v in d.revote_voters]
    if d.lift_voters is not None:
        day["lift_voters"] = _voters_json(d.lift_voters)
    return day


def seat_to_dict(p: Protocol, s: SeatEntry) -> dict[str, Any]:
    seat: dict[str, Any] = {"seat": s.seat, "player": s.player, "role": s.role, "fouls": s.fouls}
    if s.club:
        seat["club"] = s.club
    if p.summary and s.first_night_killed is not None:
        seat["first_night_killed"] = s.first_night_killed
    if p.summary and s.out is not None:
        seat["out"] = {"how": s.out.how, **({"round": s.out.round} if s.out.round is not None else {})}
    return seat


# ---------------------------------------------------------------------------------------------- stored as JSON
# The database keeps these parts in the format's own shapes: `Game.summary` is null for a full protocol, else
# {"first_night_known": bool, "seats": {"<seat>": {"first_night_killed"?, "out"?}}}; `Day.voters` is null when no voter is known, else
# {"voters"?, "revote_voters"?, "lift_voters"?} as on a day of the format.


def summary_to_json(p: Protocol) -> dict[str, Any] | None:
    if not p.summary:
        return None
    seats = {str(s.seat): {k: v for k, v in seat_to_dict(p, s).items() if k in ("first_night_killed", "out")}
             for s in p.seats}
    # `first_night_known` lets a query leave out of the Ci counts the summaries that do not tell the first night
    return {"first_night_known": p.first_night_known(),
            "seats": {seat: parts for seat, parts in seats.items() if parts}}


def summary_from_json(stored: dict[str, Any] | None, seats: list[SeatEntry]) -> bool:
    """Put a stored summary's seat parts onto `seats`; whether the game is a summary."""
    if stored is None:
        return False
    r = Reader("stored")
    parts = stored.get("seats") or {}
    for entry in seats:
        given = parts.get(str(entry.seat))
        if given:
            read_summary_seat(r, given, f"seats[{entry.seat}]", entry, summary=True)
    return True


def voters_to_json(d: Day) -> dict[str, Any] | None:
    parts = {k: v for k, v in day_to_dict(d).items() if k in ("voters", "revote_voters", "lift_voters")}
    return parts or None


def voters_from_json(stored: dict[str, Any] | None, day: Day) -> None:
    """Put a day's stored voters onto `day`."""
    if not stored:
        return
    r = Reader("stored")
    day.voters = voter_map(r, stored.get("voters"), "voters")
    if stored.get("revote_voters") is not None:
        day.revote_voters = [voter_map(r, v, "revote_voters") or {} for v in stored["revote_voters"]]
    day.lift_voters = lift_map(r, stored.get("lift_voters"), "lift_voters")
