"""Plain dataclasses for one game protocol — the engine's input.

They mirror the `mafclub/1` interchange format (see `interchange.py`) one to one, so a protocol read from JSON,
from the database or from the live judge screen is the same object. No Django here.

Phases (docs/rules.md I4): Night 0 (cards, no shooting) → Day 1 → Night 1 (first shooting night) → Day 2 → …
`days[0]` is Day 1 and `nights[0]` is Night 1; `len(days) - len(nights)` is 0 or 1.
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
    club: str = ""  # the player's home club's name (mafclub/1's optional "club"); "" when not given


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
        return self.nights[0].kill if self.nights else None
