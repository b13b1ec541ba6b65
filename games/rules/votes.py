"""The day's vote, resolved once for everybody: the live entry asks what comes next, the validator checks what the
protocol records. Pure: plain data in, plain data out (docs/rules.md I14–I21, "Voting").

* `vote_opening(nominees, day)`: what the nominations alone decide — no vote without nominees or with a single
  nominee on Day 1 (000 4.4.13, 001 r.29, 002 I.6.17, 003 l.22); a single nominee from Day 2 on leaves without a
  vote (000 4.4.12, 003 l.51); otherwise the main round.
* `resolve_vote(rounds, lift, ...)`: the main round, the re-votes among the tied and the lift vote
  (000 4.4.14–4.4.15, 001 r.31–34, 002 I.6.18, 003 l.60–62): a unique maximum decides; a tie goes to a re-vote
  among exactly the tied; the same tie again goes to the lift vote, unless a ban of the rule set holds (then night
  falls and nobody leaves); the lift passes with more than half of the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .protocol import Day, Tally
from .ruleset import LiftBan

# ---------------------------------------------------------------------------------------------- the opening


def active_nominees(day: Day) -> list[int] | None:
    """The day's nominees in nomination order, withdrawn ones left out; None when nominations are not recorded."""
    if day.nominations is None:
        return None
    seen: list[int] = []
    for nomination in day.nominations:
        if not nomination.withdrawn and nomination.nominee not in seen:
            seen.append(nomination.nominee)
    return seen


NOBODY_NOMINATED = "nobody_nominated"
DAY1_SINGLE_NOMINEE = "day1_single_nominee"
SINGLE_NOMINEE_LEAVES = "single_nominee_leaves"
MAIN_ROUND = "main_round"

# The clauses behind each opening, for `cite` (the rule set's own book first).
NO_VOTE_CLAUSES = ("000 4.4.13", "001 r.29", "002 I.6.17", "003 l.22")
OPENING_CLAUSES = {
    NOBODY_NOMINATED: NO_VOTE_CLAUSES,
    DAY1_SINGLE_NOMINEE: NO_VOTE_CLAUSES,
    SINGLE_NOMINEE_LEAVES: ("000 4.4.12", "003 l.51"),
    MAIN_ROUND: ("000 4.4.5", "001 r.23", "002 I.6.10", "003 l.53"),
}


def vote_opening(nominees: Sequence[int], day: int) -> str:
    """What the day's nominations decide before any vote (one of the four constants above)."""
    if not nominees:
        return NOBODY_NOMINATED
    if len(nominees) == 1:
        return DAY1_SINGLE_NOMINEE if day == 1 else SINGLE_NOMINEE_LEAVES
    return MAIN_ROUND


def opening_out(opening: str, nominees: Sequence[int]) -> list[int]:
    """Who leaves by the nominations alone: the single nominee from Day 2 on, else nobody."""
    return list(nominees) if opening == SINGLE_NOMINEE_LEAVES else []


# ---------------------------------------------------------------------------------------------- the rounds

# steps
DECIDED = "decided"  # `out` says who leaves (maybe nobody)
REVOTE = "revote"  # a re-vote among `tied` is due
LIFT = "lift"  # the lift vote on `tied` is due
INVALID = "invalid"  # round `round` (or the lift) breaks a rule: `fault`

# what decided (or where the walk stopped)
UNIQUE_MAXIMUM = "unique_maximum"  # round `round` has a unique leader
SECOND_TIE = "second_tie"  # round `round` repeats the previous tie: the lift vote (or its ban) decides
FIRST_TIE = "first_tie"  # the last recorded round is a (new) tie

# faults (only with `strict`)
NOT_THE_TIED = "not_the_tied"  # a re-vote not among exactly the tied seats (000 4.4.14)
NEGATIVE = "negative"  # votes below zero (000 4.4.12)
WRONG_SUM = "wrong_sum"  # votes not summing to the living players (000 4.4.11–4.4.12)
NOT_EACH_ONCE = "not_each_once"  # a candidate counted twice, or no candidate at all
BAD_LIFT = "bad_lift"  # hands outside 0..alive


@dataclass(frozen=True)
class VoteResolution:
    step: str
    out: tuple[int, ...] | None = None  # DECIDED: who leaves
    tied: tuple[int, ...] = ()  # REVOTE / LIFT: the candidates; SECOND_TIE: the tied seats
    round: int | None = None  # the index of the deciding round (0: the main round), or of the faulty one
    by: str = ""  # UNIQUE_MAXIMUM, SECOND_TIE or FIRST_TIE
    ban: LiftBan | None = None  # the lift ban that holds (after a second tie, or the first-tie ban)
    fault: str = ""  # INVALID: which rule the round breaks


def matching_lift_ban(bans: Sequence[LiftBan], *, alive: int, tied: int, day: int) -> LiftBan | None:
    """The first of the rule set's lift bans that holds for this tie (000 4.4.14 exceptions, 002 I.6.18.5–18.6)."""
    return next((ban for ban in bans if ban.matches(alive=alive, tied=tied, day=day)), None)


def round_fault(tallies: Sequence[Tally], alive: int, *, non_voters_to_last: bool = True) -> str:
    """Why a round of votes is not a valid count of `alive` players ("" when it is): the votes add up to the living
    players, or to at most that many where a player may abstain (`RuleSet.non_voters_to_last` False)."""
    if any(t.votes < 0 for t in tallies):
        return NEGATIVE
    total = sum(t.votes for t in tallies)
    if total > alive or (non_voters_to_last and total != alive):
        return WRONG_SUM
    if len({t.seat for t in tallies}) != len(tallies) or not tallies:
        return NOT_EACH_ONCE
    return ""


def round_leaders(tallies: Sequence[Tally]) -> list[int]:
    """The seats with the most votes, in the round's order."""
    top = max(t.votes for t in tallies)
    return [t.seat for t in tallies if t.votes == top]


def resolve_vote(rounds: Sequence[Sequence[Tally]], lift: int | None, *, alive: int, day: int,
                 lift_bans: Sequence[LiftBan], strict: bool = True,
                 non_voters_to_last: bool = True) -> VoteResolution:
    """Walk the recorded rounds (the main round first, then the re-votes) and the lift vote.

    `strict`: check each round (the tied seats, the count) and stop at the first fault — the validator's reading.
    Without it the rounds are taken as entered (the live entry checked each one when it was entered).
    A first tie that a first-tie ban covers (002 I.6.18.1: the Day-1 split already means night) is reported as
    REVOTE with that `ban`: the re-vote may be held, or night may fall with nobody out.
    """
    tied: list[int] | None = None
    for k, tallies in enumerate(rounds):
        if strict:
            if tied is not None and [t.seat for t in tallies] != tied:
                return VoteResolution(INVALID, tied=tuple(tied), round=k, fault=NOT_THE_TIED)
            fault = round_fault(tallies, alive, non_voters_to_last=non_voters_to_last)
            if fault:
                return VoteResolution(INVALID, round=k, fault=fault)
        leaders = round_leaders(tallies)
        if len(leaders) == 1:
            return VoteResolution(DECIDED, out=tuple(leaders), round=k, by=UNIQUE_MAXIMUM)
        if tied is not None and leaders == tied:
            return _lift(leaders, k, lift, alive=alive, day=day, lift_bans=lift_bans, strict=strict)
        if k + 1 == len(rounds):
            ban = matching_lift_ban([b for b in lift_bans if b.first_tie], alive=alive, tied=len(leaders), day=day)
            return VoteResolution(REVOTE, tied=tuple(leaders), round=k, by=FIRST_TIE, ban=ban)
        tied = leaders
    return VoteResolution(REVOTE, tied=tuple(tied or ()))


def _lift(tied: list[int], k: int, lift: int | None, *, alive: int, day: int, lift_bans: Sequence[LiftBan],
          strict: bool) -> VoteResolution:
    ban = matching_lift_ban(lift_bans, alive=alive, tied=len(tied), day=day)
    if ban is not None:
        return VoteResolution(DECIDED, out=(), tied=tuple(tied), round=k, by=SECOND_TIE, ban=ban)
    if lift is None:
        return VoteResolution(LIFT, tied=tuple(tied), round=k, by=SECOND_TIE)
    if strict and not 0 <= lift <= alive:
        return VoteResolution(INVALID, tied=tuple(tied), round=k, by=SECOND_TIE, fault=BAD_LIFT)
    return VoteResolution(DECIDED, out=tuple(tied) if lift * 2 > alive else (), tied=tuple(tied), round=k,
                          by=SECOND_TIE)
