"""Plain dataclasses for one game protocol — the engine's input.

They mirror the `mafclub/1` interchange format (see `interchange.py`) one to one, so a protocol read from JSON,
from the database or from the live judge screen is the same object. No Django here.

Phases (docs/rules.md I4): Night 0 (cards, no shooting) → Day 1 → Night 1 (first shooting night) → Day 2 → …
`days[0]` is Day 1 and `nights[0]` is Night 1; `len(days) - len(nights)` is 0 or 1.

A summary protocol (`Protocol.summary`, docs/rules.md "Summary protocols") has no days and no nights: only the
seats, the result, the removals, the best move and the extras are known, and per seat what the sheet gave of the
first-night death and the departure (`SeatEntry.first_night_killed`, `SeatEntry.out`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

CITIZEN, MAFIA, SHERIFF, DON = "К", "Ч", "Ш", "Д"
ROLES = (CITIZEN, MAFIA, SHERIFF, DON)
RED_ROLES = frozenset({CITIZEN, SHERIFF})
BLACK_ROLES = frozenset({MAFIA, DON})
# 002 I.1.1, 001 r.1, 003 l.3: six citizens + sheriff (red), two mafia + don (black).
ROLE_COUNTS = {CITIZEN: 6, MAFIA: 2, SHERIFF: 1, DON: 1}

RED, BLACK, DRAW = "red", "black", "draw"
RESULTS = (RED, BLACK, DRAW)

# seats[].out.how of a summary protocol
KILLED, VOTED, REMOVED = "killed", "voted", "removed"
OUT_HOWS = (KILLED, VOTED, REMOVED)

# removals[].reason
FOULS, DISQUALIFIED, PPK = "fouls", "disqualified", "ppk"
REMOVAL_REASONS = (FOULS, DISQUALIFIED, PPK)

SEATS = tuple(range(1, 11))


def team_of(role: str | None) -> str | None:
    """'red' for К/Ш, 'black' for Ч/Д, None when the role is not entered yet."""
    if role in RED_ROLES:
        return RED
    if role in BLACK_ROLES:
        return BLACK
    return None


@dataclass
class SeatEntry:
    seat: int  # 1..10
    player: str  # nickname
    role: str | None = None  # К/Ч/Ш/Д; None while not entered (000 P7.4: may be written after the game)
    fouls: int = 0  # 0..4 (000 D6.5, 002 II.2.1, 003 l.123)
    # a summary protocol only: the Night-1 victim marker (None: not said), and how and in which round (Day N /
    # Night N) the seat left, when the sheet gives it
    club: str = ""  # the player's home club's name (mafclub/1's optional "club"); "" when not given
    first_night_killed: bool | None = None
    out: SeatOut | None = None


@dataclass
class SeatOut:
    how: str  # killed | voted | removed
    round: int | None = None  # the game round: Day N / Night N; None when not known


@dataclass
class Nomination:
    by: int
    nominee: int
    withdrawn: bool = False  # 001 r.20–22, 003 l.49 only


@dataclass
class Tally:
    seat: int
    votes: int


@dataclass
class Day:
    """One discussion day. Optional parts are None when the sheet does not record them."""

    nominations: list[Nomination] | None = None
    votes: list[Tally] | None = None  # the main round, in nomination order
    revotes: list[list[Tally]] = field(default_factory=list)  # re-vote rounds among the tied
    lift: int | None = None  # votes "for" in the lift vote; None = no lift vote held
    out: list[int] = field(default_factory=list)  # seats that left by this day's vote or lift
    # who voted for whom, when the sheet records it (docs/rules.md I47–I50): voter seat -> candidate seat for the
    # main round, one such map per re-vote (parallel to `revotes`), voter seat -> raised hand in the lift vote
    voters: dict[int, int] | None = None
    revote_voters: list[dict[int, int]] | None = None
    lift_voters: dict[int, bool] | None = None


@dataclass
class Night:
    kill: int | None = None  # None = miss
    don_check: int | None = None
    sheriff_check: int | None = None


@dataclass
class Removal:
    seat: int
    reason: str  # fouls | disqualified | ppk
    at: str  # phase: "D2", "N1"
    # docs/rules.md A35 / 000 S7.2 / 002 I.8.2: removed after that day's vote result was already determined.
    after_vote: bool = False
    note: str = ""


@dataclass
class Colour:
    """"Цвет под запись" (002 III.5): a night-killed player declared `target` black for the record."""

    by: int
    target: int


@dataclass
class JudgeExtra:
    seat: int
    points: Decimal
    note: str = ""
    approved: bool = False  # head judge's approval (000 T6.1.3 for 0.6 and 0.7)


@dataclass
class Adjustment:
    """A judge-entered item with its clause: III.5 mechanical ±0.3, III.6 destructive −0.3/−0.5, others."""

    seat: int
    points: Decimal
    clause: str = ""
    note: str = ""


@dataclass
class Protocol:
    seats: list[SeatEntry]
    days: list[Day] = field(default_factory=list)
    nights: list[Night] = field(default_factory=list)
    removals: list[Removal] = field(default_factory=list)
    best_move: list[int] | None = None  # numbers named by the Night-1 victim; None = no best move
    colours: list[Colour] = field(default_factory=list)
    judge_extras: list[JudgeExtra] = field(default_factory=list)
    adjustments: list[Adjustment] = field(default_factory=list)
    result: str | None = None  # red | black | draw
    # header (000 P7.2)
    number: int | None = None
    table: int | None = None
    stage: str = ""
    date: str = ""  # ISO date
    judge: str = ""
    ended_at: str = ""  # ISO datetime of "Стоп игра" (002 I.1.5)
    summary: bool = False  # days and nights not known: a results-only protocol (docs/rules.md I46)

    def seat(self, number: int) -> SeatEntry | None:
        for entry in self.seats:
            if entry.seat == number:
                return entry
        return None

    def role_of(self, number: int) -> str | None:
        entry = self.seat(number)
        return entry.role if entry else None

    def team_of_seat(self, number: int) -> str | None:
        return team_of(self.role_of(number))

    def first_night_victim(self) -> int | None:
        if self.summary:
            return next((s.seat for s in self.seats if s.first_night_killed), None)
        return self.nights[0].kill if self.nights else None

    def first_night_known(self) -> bool:
        """Whether the protocol tells who died on Night 1 (or that nobody did): a full protocol with a Night 1, or a
        summary that marks the first-night death on some seat."""
        if self.summary:
            return any(s.first_night_killed is not None for s in self.seats)
        return bool(self.nights)
