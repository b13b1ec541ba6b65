"""The `mafclub/1` interchange format (a contract: extend it, never rename a key).

`parse_document(data)` turns decoded JSON into plain dataclasses and reports every structural problem (a missing
seat, a wrong type) with the game and the field; rule problems are the validator's job. `protocol_to_dict` is the
inverse, used by exports. Pure Python: no Django.

Limits every reader applies (so SQLite and PostgreSQL answer the same): game `number`, `table` and the lots are
whole numbers from 1 to 2147483647 (`MAX_INTEGER`); points are within ±99999999.999999 (`MAX_POINTS`); no text
(value or key) holds the NUL character; the importer also checks each text against its column's length.

Extension fields of a game (all optional; a file without them reads as before). They carry what protests decided,
so that an export imported into an empty database gives the same standings (000 T6.3, 002 III.15–16, 003 l.127):

- `result`: the game's official result, i.e. after any reversal by a protest. When an upheld protest reversed it,
  the protocol's facts still show the result they showed: the reader takes that from the first reversal's
  `from` (in the order of `decided_at`) and validates the protocol with it; the last reversal's `to` must equal
  `result`.
- `status`: one of `draft`, `in_progress`, `finished`, `signed`, `annulled`. An annulled game (a replay ordered,
  or annulled by the team vote of 003 l.127) does not count. Without it: `finished` when there is a result, else
  `in_progress`.
- `signed_at`: ISO date-time of the signature (with `status: signed`).
- `seats[].club`: the seat's player's home club, by its name (docs/persons.md): an import attaches that club's
  member of the nickname instead of making a copy; without it the seat is the importing club's player.
- `replay_of`: the number of the annulled game (of the same tournament) this game replays.
- `version`: the game's version on the site that made the file (every write there bumps it). An import re-writes
  a stored game only when its current version is the file's; a file without it re-writes only games nobody
  entered on the judge's screen; a game in play is never re-written (games/protocol/services/import_guard.py).
- `adjustments[].source`: `"protest"` for an item a protest decision added (a penalty, or the compensation of a
  removed automatic penalty); absent or `"judge"` for the judge's own. Protest items are not part of the protocol
  the judge signed, so the validator does not see them; they are stored and scored as decided.
- `protests`: the game's protests, oldest first, each `{"category", "text", "filed_at", "status"
  (pending|rejected|upheld), "seat"?, "player"? (the filer's nickname), "decided_at"?, "explanation"?,
  "outcomes"?}`. `outcomes` are the decision's records as the site keeps them, without the site's row ids:
  `{"kind": "reverse_result", "from", "to"}`, `{"kind": "annulled", "status_before"}`, `{"kind": "replay",
  "number"}` (the replay's game number), `{"kind": "add_penalty", "seat", "points", "clause"}`,
  `{"kind": "remove_penalty", "removed": {…}}` or `{"kind": "remove_penalty", "compensated": {…}}`,
  `{"kind": "lapsed", "removed": {…}}`, `{"kind": "correct_protocol", "field", "seat"|"night", "from", "to"}`
  (the protocol carries the corrected facts), `{"kind": "team_vote", "team", "votes", "team_seats", "annuls"}`,
  `{"kind": "sk_agreement", "representative"}`. A decision is final: an import creates a game's protests once
  and refuses a file whose protests would replace those a game already has.

Extension fields of a game's parts (all optional; `interchange_parts.py` reads and writes them; docs/summaries_and_voters.md):

- `summary`: `true` for a game known by its results only (docs/rules.md I46): it has no `days` and no `nights`
  (absent or empty); its removals may leave out `at` (the phase, when not known). Each of its seats may carry
  `first_night_killed` (`true` for the player killed on Night 1 — the first-night death that gives the best move's
  right, the Ci and the first-night tie-breaker; `false` on a seat says the sheet tells it; absent on every seat:
  not known, and the game is left out of what needs it) and `out`: `{"how": "killed"|"voted"|"removed",
  "round": N}` (how the seat left and in which round, Day N / Night N; `round` optional). Only a summary game
  carries these two.
- who voted for whom, on a day (docs/rules.md I47–I50): `voters` `{"<voter seat>": <candidate seat>, …}` for the
  main round; `revote_voters` `[{…}, …]` parallel to `revotes`; `lift_voters` `{"<voter seat>": true|false, …}`
  for the lift vote. A living player not in a round's map raised no hand: he counts for the last candidate where
  the rule set says so (`non_voters_to_last`). The counts (`votes`, `revotes`, `lift.for`) may then be left out —
  they are derived from the voters — or given, and must agree; a day with counts only stays valid.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from .i18n import N_
from .interchange_parts import day_to_dict, read_day, read_summary_seat, seat_to_dict
from .problems import Problem, error_t
from .protocol import (
    REMOVAL_REASONS,
    RESULTS,
    ROLES,
    Adjustment,
    Colour,
    JudgeExtra,
    Night,
    Protocol,
    Removal,
    SeatEntry,
)
from .reader import MAX_INTEGER, Reader
from .ruleset import PRESETS

FORMAT = "mafclub/1"
NUL_MESSAGE = N_("must not contain the NUL character (U+0000)")


@dataclass
class TournamentHeader:
    name: str
    ruleset: str
    difficult_roles: list[str] | None = None
    stages: list[str] = field(default_factory=list)
    lots: dict[str, int] = field(default_factory=dict)  # nickname -> stored lot number (an extension)


@dataclass
class GameProblem:
    """A problem located in one game of a document (`game` is its number, or its position when unnumbered)."""

    game: str
    problem: Problem

    def __str__(self) -> str:
        return f"game {self.game}: {self.problem.field}: {self.problem.message}"


GAME_STATUSES = ("draft", "in_progress", "finished", "signed", "annulled")
PROTEST_STATUSES = ("pending", "rejected", "upheld")
ADJUSTMENT_SOURCES = ("judge", "protest")


@dataclass
class ProtestRecord:
    """A protest of the game and, once decided, its final decision (000 T6.3, 002 III.15–16)."""

    category: str
    text: str
    filed_at: str  # ISO date-time
    status: str  # one of PROTEST_STATUSES
    seat: int | None = None
    player: str = ""  # the filer's nickname, when a player filed it
    decided_at: str = ""
    explanation: str = ""
    outcomes: list[dict[str, Any]] = field(default_factory=list)  # what the decision did, as the site records it


@dataclass
class GameRecord:
    """What a game carries beside its protocol: status, the official result, protests, protest adjustments.

    `result` is the official result; when an upheld protest reversed it, the game's `Protocol.result` is the
    result the protocol's facts show (the first reversal's "from"), which is what the validator checks."""

    status: str | None = None
    result: str | None = None
    signed_at: str = ""
    replay_of: int | None = None
    version: int | None = None  # the game's version when the file was made (None: an older file, or a new game)
    protests: list[ProtestRecord] = field(default_factory=list)
    protest_adjustments: list[Adjustment] = field(default_factory=list)


@dataclass
class Document:
    tournament: TournamentHeader | None
    games: list[Protocol]
    problems: list[GameProblem]  # structural problems; a game with any is left out of `games`
    records: dict[int, GameRecord] = field(default_factory=dict)  # by game number: the extension fields


def _night(r: Reader, value: Any, path: str) -> Night:
    obj = r.obj(value, path) or {}
    return Night(
        kill=r.seat_no(obj.get("kill"), f"{path}.kill", optional=True),
        don_check=r.seat_no(obj.get("don_check"), f"{path}.don_check", optional=True),
        sheriff_check=r.seat_no(obj.get("sheriff_check"), f"{path}.sheriff_check", optional=True),
    )


def parse_game(value: Any, label: str) -> tuple[Protocol | None, list[Problem]]:
    protocol, _record, problems = _parse_game(value, label)
    return protocol, problems


def _parse_game(value: Any, label: str) -> tuple[Protocol | None, GameRecord | None, list[Problem]]:
    r = Reader(label)
    obj = r.obj(value, "game")
    if obj is None:
        return None, None, r.problems
    summary = obj.get("summary", False)
    if not isinstance(summary, bool):
        r.fail("summary", N_("must be true or false, got %(got)s"), got=repr(summary))
        summary = False
    seats = _seats(r, obj.get("seats"), summary=summary)
    days = [read_day(r, d, f"days[{i}]") for i, d in enumerate(r.array(obj.get("days"), "days") or [])]
    nights = [_night(r, n, f"nights[{i}]") for i, n in enumerate(r.array(obj.get("nights"), "nights") or [])]
    if summary and (days or nights):
        r.fail("days" if days else "nights", N_("docs/rules.md I46: a summary protocol has no days and no nights"))
    removals = _removals(r, obj.get("removals"), summary=summary)
    best_move = _best_move(r, obj.get("best_move"))
    colours = _colours(r, obj.get("colours"))
    extras = _judge_extras(r, obj.get("judge_extras"))
    adjustments, protest_adjustments = _adjustments(r, obj.get("adjustments"))
    result = _result(r, obj.get("result"))
    protocol = Protocol(
        seats=seats,
        days=days,
        nights=nights,
        removals=removals,
        best_move=best_move,
        colours=colours,
        judge_extras=extras,
        adjustments=adjustments,
        result=result,
        number=r.integer(obj.get("number"), "number", low=1, high=MAX_INTEGER, optional=True),
        table=r.integer(obj.get("table"), "table", low=1, high=MAX_INTEGER, optional=True),
        stage=r.text(obj.get("stage"), "stage"),
        date=r.text(obj.get("date"), "date"),
        judge=r.text(obj.get("judge"), "judge"),
        ended_at=r.text(obj.get("ended_at"), "ended_at"),
        summary=summary,
    )
    record = _game_record(r, obj, protocol, protest_adjustments)
    if r.problems:
        return None, None, r.problems
    return protocol, record, r.problems


def _seats(r: Reader, value: Any, *, summary: bool) -> list[SeatEntry]:
    """The ten seats, in seat order: a nickname each, an optional role, the fouls (000 4.1.1, P7.3, P7.4.1)."""
    seats_raw = r.array(value, "seats", optional=False) or []
    seats: list[SeatEntry] = []
    for i, item in enumerate(seats_raw):
        s = r.obj(item, f"seats[{i}]")
        if s is None:
            continue
        number = r.seat_no(s.get("seat"), f"seats[{i}].seat")
        path = f"seats[{number}]" if number is not None else f"seats[{i}]"
        player = r.text(s.get("player"), f"{path}.player", optional=False).strip()
        if not player:
            r.fail(f"{path}.player", N_("a nickname is required (000 P7.3)"))
        role = s.get("role")
        if role is not None and role not in ROLES:
            r.fail(f"{path}.role", N_("must be one of К, Ч, Ш, Д (000 P7.4.1), got %(got)s"), got=repr(role))
            role = None
        fouls = r.integer(s.get("fouls", 0), f"{path}.fouls", low=0, high=4)
        club = (r.text(s.get("club"), f"{path}.club", optional=True) or "").strip()  # the home club's name
        if number is not None:
            entry = SeatEntry(seat=number, player=player, role=role, fouls=fouls or 0, club=club)
            read_summary_seat(r, s, path, entry, summary=summary)
            seats.append(entry)
    present = {s.seat for s in seats}
    for missing in sorted(set(range(1, 11)) - present):
        r.fail(f"seats[{missing}]", N_("missing: a protocol has ten seats numbered 1–10 (000 4.1.1)"))
    if len(seats_raw) > 10:
        r.fail("seats", N_("a protocol has exactly ten seats, got %(got)s (000 4.1.1)"), got=len(seats_raw))
    return sorted(seats, key=lambda entry: entry.seat)


def _removals(r: Reader, value: Any, *, summary: bool) -> list[Removal]:
    """The removals; a summary protocol's may leave out the phase (`at`) it does not know."""
    removals = []
    for path, rm in r.objects(value, "removals"):
        seat = r.seat_no(rm.get("seat"), f"{path}.seat")
        reason = rm.get("reason")
        if reason not in REMOVAL_REASONS:
            r.fail(f"{path}.reason", N_("must be one of %(allowed)s, got %(got)s"), allowed=', '.join(REMOVAL_REASONS),
                   got=repr(reason))
        at = r.text(rm.get("at"), f"{path}.at", optional=summary)
        if seat is not None and reason in REMOVAL_REASONS:
            removals.append(Removal(seat=seat, reason=reason, at=at, after_vote=bool(rm.get("after_vote", False)),
                                    note=r.text(rm.get("note"), f"{path}.note")))
    return removals


def _best_move(r: Reader, value: Any) -> list[int] | None:
    if value is None:
        return None
    bm = r.array(value, "best_move") or []
    return [n for i, raw in enumerate(bm) if (n := r.seat_no(raw, f"best_move[{i}]")) is not None]


def _colours(r: Reader, value: Any) -> list[Colour]:
    colours = []
    for path, c in r.objects(value, "colours"):
        by = r.seat_no(c.get("by"), f"{path}.by")
        target = r.seat_no(c.get("target"), f"{path}.target")
        if by is not None and target is not None:
            colours.append(Colour(by=by, target=target))
    return colours


def _judge_extras(r: Reader, value: Any) -> list[JudgeExtra]:
    extras = []
    for path, e in r.objects(value, "judge_extras"):
        seat = r.seat_no(e.get("seat"), f"{path}.seat")
        points = r.points(e.get("points"), f"{path}.points")
        if seat is not None and points is not None:
            extras.append(JudgeExtra(seat=seat, points=points, note=r.text(e.get("note"), f"{path}.note"),
                                     approved=bool(e.get("approved", False))))
    return extras


def _adjustments(r: Reader, value: Any) -> tuple[list[Adjustment], list[Adjustment]]:
    """(the judge's adjustments, those a protest decision entered: not part of the protocol the judge signed)."""
    adjustments: list[Adjustment] = []
    protest_adjustments: list[Adjustment] = []
    for path, a in r.objects(value, "adjustments"):
        seat = r.seat_no(a.get("seat"), f"{path}.seat")
        points = r.points(a.get("points"), f"{path}.points")
        source = a.get("source", "judge")
        if source not in ADJUSTMENT_SOURCES:
            r.fail(f"{path}.source", N_("must be one of %(allowed)s, got %(got)s"),
                   allowed=", ".join(ADJUSTMENT_SOURCES), got=repr(source))
        if seat is not None and points is not None:
            (protest_adjustments if source == "protest" else adjustments).append(Adjustment(
                seat=seat, points=points, clause=r.text(a.get("clause"), f"{path}.clause"),
                note=r.text(a.get("note"), f"{path}.note")))
    return adjustments, protest_adjustments


def _result(r: Reader, result: Any) -> str | None:
    if result is None:
        return None
    if result not in RESULTS:
        r.fail("result", N_("must be one of red, black, draw (000 P7.7, docs/rules.md A4), got %(got)s"), got=repr(result))
        return None
    return str(result)


def _protests(r: Reader, value: Any) -> list[ProtestRecord]:
    protests = []
    for path, p in r.objects(value, "protests"):
        status = p.get("status", "pending")
        if status not in PROTEST_STATUSES:
            r.fail(f"{path}.status", N_("must be one of %(allowed)s, got %(got)s"),
                   allowed=", ".join(PROTEST_STATUSES), got=repr(status))
        category = r.text(p.get("category"), f"{path}.category", optional=False)
        filed_at = r.text(p.get("filed_at"), f"{path}.filed_at", optional=False)
        if not filed_at:
            r.fail(f"{path}.filed_at", N_("is required: when the protest was filed (000 T6.3.1)"))
        decided_at = r.text(p.get("decided_at"), f"{path}.decided_at")
        if status != "pending" and not decided_at:
            r.fail(f"{path}.decided_at", N_("is required for a decided protest (000 T6.3.2)"))
        outcomes = []
        for item_path, outcome in r.objects(p.get("outcomes"), f"{path}.outcomes"):
            if not isinstance(outcome.get("kind"), str):
                r.fail(f"{item_path}.kind", N_("must be text, got %(got)s"), got=repr(outcome.get("kind")))
            outcomes.append(outcome)
        protests.append(ProtestRecord(
            category=category, text=r.text(p.get("text"), f"{path}.text"), filed_at=filed_at, status=status,
            seat=r.seat_no(p.get("seat"), f"{path}.seat", optional=True),
            player=r.text(p.get("player"), f"{path}.player").strip(), decided_at=decided_at,
            explanation=r.text(p.get("explanation"), f"{path}.explanation"), outcomes=outcomes))
    return protests


def _game_record(r: Reader, obj: dict[str, Any], protocol: Protocol,
                 protest_adjustments: list[Adjustment]) -> GameRecord:
    """The extension fields of a game; moves the protocol's result back to what its facts show when an upheld
    protest reversed it."""
    status = obj.get("status")
    if status is not None and status not in GAME_STATUSES:
        r.fail("status", N_("must be one of %(allowed)s, got %(got)s"), allowed=", ".join(GAME_STATUSES),
               got=repr(status))
        status = None
    official = protocol.result
    if status in ("finished", "signed") and official is None:
        r.fail("status", N_("a %(status)s game needs its result"), status=status)
    if status in ("draft", "in_progress") and official is not None:
        r.fail("status", N_("a %(status)s game has no result yet"), status=status)
    protests = _protests(r, obj.get("protests"))
    if protest_adjustments and not any(p.status == "upheld" for p in protests):
        r.fail("adjustments", N_("an adjustment of source protest needs the upheld protest that added it"))
    upheld = sorted((p for p in protests if p.status == "upheld"), key=lambda p: p.decided_at)  # ISO: in time order
    reversals = [o for p in upheld for o in p.outcomes if o.get("kind") == "reverse_result"]
    if reversals:
        first, last = reversals[0].get("from"), reversals[-1].get("to")
        if first not in (*RESULTS, "", None):
            r.fail("protests", N_("a reversal's from must be one of red, black, draw, got %(got)s"), got=repr(first))
        elif last != official:
            r.fail("result", N_("must be %(result)s: the result the last upheld protest gave"), result=repr(last))
        else:
            protocol.result = first or None  # what the protocol's facts show; validated as such
    replay_of = r.integer(obj.get("replay_of"), "replay_of", low=1, high=MAX_INTEGER, optional=True)
    version = r.integer(obj.get("version"), "version", low=1, high=MAX_INTEGER, optional=True)
    return GameRecord(status=status, result=official, signed_at=r.text(obj.get("signed_at"), "signed_at"),
                      replay_of=replay_of, version=version, protests=protests,
                      protest_adjustments=protest_adjustments)


def parse_document(data: Any) -> Document:
    """Read a decoded `mafclub/1` document. Structural problems are collected, never raised."""
    problems: list[GameProblem] = []
    if not isinstance(data, dict):
        return Document(None, [], [GameProblem("-", error_t("document", N_("must be a JSON object")))])
    problems += _nul_problems(data)
    if data.get("format") != FORMAT:
        problems.append(GameProblem("-", error_t("format", N_("must be %(format)s, got %(got)s"), format=repr(FORMAT),
                                                 got=repr(data.get('format')))))

    tournament = _tournament(data.get("tournament"), problems)

    games_raw = data.get("games")
    if not isinstance(games_raw, list):
        problems.append(GameProblem("-", error_t("games", N_("a list of games is required"))))
        games_raw = []
    games, records = _games(games_raw, problems)
    return Document(tournament, games, problems, records)


def _games(games_raw: list[Any], problems: list[GameProblem]) -> tuple[list[Protocol], dict[int, GameRecord]]:
    """The games without structural problems and their records, by number; the problems are appended to `problems`:
    a game's own, a missing number (000 P7.2.1), a number seen before."""
    games: list[Protocol] = []
    seen_numbers: dict[int, int] = {}
    records: dict[int, GameRecord] = {}
    for i, raw in enumerate(games_raw):
        label = _game_label(raw, i)
        protocol, record, game_problems = _parse_game(raw, label)
        problems.extend(GameProblem(label, p) for p in game_problems)
        if protocol is None:
            continue
        if protocol.number is None:
            problems.append(GameProblem(label, error_t("number", N_("a game number is required (000 P7.2.1)"))))
            continue
        if protocol.number in seen_numbers:
            problems.append(GameProblem(label, error_t("number", N_("game number %(number)s appears twice"),
                                                       number=protocol.number)))
            continue
        seen_numbers[protocol.number] = i
        games.append(protocol)
        if record is not None:  # present whenever the protocol is
            records[protocol.number] = record
    return games, records


def _tournament(t: Any, problems: list[GameProblem]) -> TournamentHeader | None:
    """The document's tournament header; its problems are appended to `problems`."""
    if not isinstance(t, dict):
        problems.append(GameProblem("-", error_t("tournament", N_("an object with name and ruleset is required"))))
        return None
    name = t.get("name")
    ruleset = t.get("ruleset")
    if not isinstance(name, str) or not name.strip():
        problems.append(GameProblem("-", error_t("tournament.name", N_("a tournament name is required"))))
    if not isinstance(ruleset, str) or not ruleset.strip():
        problems.append(GameProblem("-", error_t(
            "tournament.ruleset", N_("a rule set is required (one of %(presets)s or a club copy)"),
            presets=', '.join(PRESETS))))
    difficult = t.get("difficult_roles")
    if difficult is not None and (not isinstance(difficult, list) or any(x not in ROLES for x in difficult)):
        problems.append(GameProblem("-", error_t("tournament.difficult_roles",
                                                 N_("must be a list of role letters К, Ч, Ш, Д (002 III.14.3, docs/rules.md A17)"))))
        difficult = None
    stages_raw = t.get("stages")
    stages = stages_raw if isinstance(stages_raw, list) else []
    lots = t.get("lots") or {}
    if not isinstance(lots, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and 0 < v <= MAX_INTEGER
            for k, v in lots.items()):
        problems.append(GameProblem("-", error_t("tournament.lots", N_(
            "must map nicknames to lot numbers between 1 and %(high)s"), high=MAX_INTEGER)))
        lots = {}
    if isinstance(name, str) and isinstance(ruleset, str):
        return TournamentHeader(name=name.strip(), ruleset=ruleset.strip(), difficult_roles=difficult,
                                stages=[str(s) for s in stages], lots=dict(lots))
    return None


def _game_label(raw: Any, i: int) -> str:
    """How problems name a game: its number, or "#n" (its position) when the number is missing or bad (0, -1)."""
    number = raw.get("number") if isinstance(raw, dict) else None
    if isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= MAX_INTEGER:
        return str(number)
    return f"#{i + 1}"


def _nul_problems(data: dict[str, Any], limit: int = 20) -> list[GameProblem]:
    """Every text (key or value) holding the NUL character, which PostgreSQL cannot store (and SQLite would keep,
    so the two databases would differ): located by game and path. Walked without recursion."""
    found: list[GameProblem] = []
    games_raw = data.get("games")
    games = games_raw if isinstance(games_raw, list) else []
    stack: list[tuple[str, str, Any]] = [("-", key, value) for key, value in data.items() if key != "games"]
    for i, raw in enumerate(games):
        stack.append((_game_label(raw, i), "game", raw))
    while stack and len(found) < limit:
        label, path, value = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                found.append(GameProblem(label, error_t(path, NUL_MESSAGE)))
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and "\x00" in key:
                    found.append(GameProblem(label, error_t(path, NUL_MESSAGE)))
                shown = str(key).replace("\x00", "\\x00")
                child = f"{path}.{shown}" if path != "game" else shown
                stack.append((label, child, item))
        elif isinstance(value, list):
            stack.extend((label, f"{path}[{i}]", item) for i, item in enumerate(value))
    return found


def _num(value: Decimal) -> float | int:
    """Points as JSON numbers: whole numbers stay ints, others round to 6 places (Ci is stored nearly exact, docs/rules.md A7)."""
    if value == value.to_integral_value():
        return int(value)
    return float(round(value, 6))


def protocol_to_dict(p: Protocol) -> dict[str, Any]:
    out: dict[str, Any] = {
        "number": p.number,
        "table": p.table,
        "stage": p.stage,
        "date": p.date,
        "judge": p.judge,
        "ended_at": p.ended_at,
        "seats": [seat_to_dict(p, s) for s in p.seats],
        "days": [day_to_dict(d) for d in p.days],
        "nights": [{"kill": n.kill, "don_check": n.don_check, "sheriff_check": n.sheriff_check} for n in p.nights],
        "removals": [
            {"seat": r.seat, "reason": r.reason, "at": r.at,
             **({"after_vote": True} if r.after_vote else {}), **({"note": r.note} if r.note else {})}
            for r in p.removals
        ],
        "colours": [{"by": c.by, "target": c.target} for c in p.colours],
        "judge_extras": [
            {"seat": e.seat, "points": _num(e.points), "note": e.note, **({"approved": True} if e.approved else {})}
            for e in p.judge_extras
        ],
        "adjustments": [
            {"seat": a.seat, "points": _num(a.points), "clause": a.clause, "note": a.note} for a in p.adjustments
        ],
        "result": p.result,
    }
    if p.best_move is not None:
        out["best_move"] = list(p.best_move)
    if p.summary:
        out["summary"] = True
    return out


def points_json(value: Decimal) -> float | int:
    return _num(value)
