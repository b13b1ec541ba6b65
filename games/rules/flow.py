"""The game flow as the live entry follows it, pure: who is at the table, the speaking order, where the day's vote
stands, when the game is over, what awaits the head judge's approval (docs/rules.md I14–I21 "Voting", I28–I31
"Game end").

The vote itself is resolved by `votes.resolve_vote`, the same resolver the validator uses; the game's end is the
validator's replay (`validate.Replay`), so the live screen and the validator never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .facts import SPEECH_LOST, SPEECH_SHORT, speaking_order, third_foul_speech
from .i18n import Text
from .protocol import KILLED as OUT_KILLED
from .protocol import VOTED as OUT_VOTED
from .protocol import JudgeExtra, Protocol
from .ruleset import RuleSet, cite
from .validate import GameEnd, Replay, vote_cancellations
from .votes import (
    DECIDED,
    LIFT,
    MAIN_ROUND,
    OPENING_CLAUSES,
    SINGLE_NOMINEE_LEAVES,
    UNIQUE_MAXIMUM,
    VoteResolution,
    active_nominees,
    resolve_vote,
    vote_opening,
)


def alive_now(protocol: Protocol) -> set[int]:
    """Seats still at the table at the current moment of the log: not removed, not killed, not voted out."""
    gone = {r.seat for r in protocol.removals}
    gone |= {n.kill for n in protocol.nights if n.kill is not None}
    for day in protocol.days:
        gone |= set(day.out)
    return {s.seat for s in protocol.seats} - gone


# How a seat left the table: by the vote, killed at night, or removed (the removal's reason: FOULS, DISQUALIFIED,
# PPK of `protocol`).
VOTED, KILLED = "vote", "night"


@dataclass(frozen=True)
class Departure:
    how: str  # VOTED, KILLED or a removal reason
    at: str  # the phase: "D2", "N1"

    def __str__(self) -> str:
        return f"{self.how} {self.at}"


def departures(protocol: Protocol) -> dict[int, Departure]:
    """How and when each seat left the table; a removal (4th foul, disqualification, team defeat) names the cause
    even of a seat that also left by vote or kill (it was removed in its last word: 000 S7.11, 002 II.3.5)."""
    left: dict[int, Departure] = {}
    for entry in protocol.seats if protocol.summary else ():  # what a summary gives (docs/rules.md I46)
        out, when = entry.out, entry.out.round if entry.out else None
        if entry.first_night_killed:
            left[entry.seat] = Departure(KILLED, "N1")
        elif out is not None and out.how in (OUT_KILLED, OUT_VOTED):
            kind, code = ("N", KILLED) if out.how == OUT_KILLED else ("D", VOTED)
            left[entry.seat] = Departure(code, f"{kind}{when}" if when else "")
    for i, day in enumerate(protocol.days, start=1):
        for seat in day.out:
            left.setdefault(seat, Departure(VOTED, f"D{i}"))
    for i, night in enumerate(protocol.nights, start=1):
        if night.kill is not None:
            left.setdefault(night.kill, Departure(KILLED, f"N{i}"))
    for removal in protocol.removals:
        left[removal.seat] = Departure(removal.reason, removal.at)
    return left


# Why the vote stands where it does (`VoteState.reason`); the screen words each one with `VoteState.clause`.
VOTE_CANCELLED = "cancelled"  # a removal cancelled the day's vote (000 S7.1–S7.2, 002 I.8.1–8.2, 003 l.81)
LIFT_BANNED = "lift_banned"  # a second tie, and the rule set holds no lift vote here (000 4.4.14, 002 I.6.18.5)
LIFT_DUE = "lift_due"  # a second tie on the same seats: vote on lifting them all (000 4.4.14, 002 I.6.18.4)
REVOTE_DUE = "revote_due"  # a tie: 30-second speeches, then a re-vote among the tied (000 4.4.14, 002 I.6.18)
# ... and the openings of `votes`: NOBODY_NOMINATED, DAY1_SINGLE_NOMINEE, SINGLE_NOMINEE_LEAVES, MAIN_ROUND


@dataclass
class VoteState:
    """Where the day's vote stands: what the judge enters next."""

    nominees: list[int]
    step: str  # "none" (no vote), "main", "revote", "lift", "done"
    candidates: list[int]
    alive: int
    reason: str = ""  # one of the reasons above, "" when nothing needs saying
    clause: str | Text = ""  # the clause behind `reason` (a Text for a cancelled vote)
    tied: list[int] = field(default_factory=list)  # LIFT_BANNED: the tied seats


def vote_alive(protocol: Protocol, index: int) -> int:
    """The players who vote on Day `index`: those at the table now, with the ones this day's vote put out."""
    return len(alive_now(protocol) | set(protocol.days[index - 1].out))


def vote_state(protocol: Protocol, ruleset: RuleSet, index: int) -> VoteState:
    """The vote flow of Day `index` (000 4.4.5–4.4.15, 002 I.6.10–6.18): main round, re-votes, lift vote."""
    day = protocol.days[index - 1]
    nominees = active_nominees(day) or []
    alive = vote_alive(protocol, index)
    cancelled = vote_cancellations(protocol, ruleset).get(index)
    if cancelled:
        return VoteState(nominees, "none", [], alive, VOTE_CANCELLED, cancelled)
    if day.out or (day.votes is not None and day.lift is not None):
        return VoteState(nominees, "done", [], alive)
    if day.votes is None:
        opening = vote_opening(nominees, index)
        if opening == MAIN_ROUND:
            return VoteState(nominees, "main", nominees, alive)
        candidates = nominees if opening == SINGLE_NOMINEE_LEAVES else []
        return VoteState(nominees, "none", candidates, alive, opening, cite(ruleset, *OPENING_CLAUSES[opening]))
    resolution = resolve_day_vote(protocol, ruleset, index)
    if resolution.step == DECIDED:
        if resolution.ban is not None:
            return VoteState(nominees, "done", [], alive, LIFT_BANNED, resolution.ban.clause, list(resolution.tied))
        return VoteState(nominees, "done", [], alive)
    if resolution.step == LIFT:
        return VoteState(nominees, "lift", list(resolution.tied), alive, LIFT_DUE,
                         cite(ruleset, "000 4.4.14", "002 I.6.18.4"))
    return VoteState(nominees, "revote", list(resolution.tied), alive, REVOTE_DUE,
                     cite(ruleset, "000 4.4.14", "002 I.6.18"))


def resolve_day_vote(protocol: Protocol, ruleset: RuleSet, index: int, *, lift: int | None = None) -> VoteResolution:
    """Day `index`'s recorded rounds through the one resolver, as entered (`lift`: hands being entered now)."""
    day = protocol.days[index - 1]
    rounds = [day.votes, *day.revotes] if day.votes is not None else []
    return resolve_vote(rounds, day.lift if lift is None else lift, alive=vote_alive(protocol, index), day=index,
                        lift_bans=ruleset.lift_bans, strict=False)


def decided_by_maximum(resolution: VoteResolution) -> list[int]:
    """The seat a round's unique maximum puts out (000 4.4.15), else nobody."""
    return list(resolution.out or ()) if resolution.by == UNIQUE_MAXIMUM else []


def game_end(protocol: Protocol, ruleset: RuleSet) -> GameEnd | None:
    """The engine's verdict: the moment a win or draw condition holds (None while the game goes on)."""
    replay = Replay(protocol, ruleset)
    replay.run()
    return replay.end


def awaiting_approval(protocol: Protocol, ruleset: RuleSet) -> list[JudgeExtra]:
    """Judge extras at or above the rule set's approval threshold the head judge has not approved (000 T6.1.3)."""
    if ruleset.judge_approval_from is None:
        return []
    return [e for e in protocol.judge_extras if e.points >= ruleset.judge_approval_from and not e.approved]


# ---------------------------------------------------------------------------------------------- the speaking order


@dataclass
class SpeechOrder:
    """Day `index`'s speeches: who speaks in what order, who has spoken, who is next, and the 3rd-foul effects."""

    first: int | None
    order: list[int]  # living seats in speaking order
    spoken: list[int]
    current: int | None
    silenced: dict[int, str] = field(default_factory=dict)  # seat -> the clause that takes today's speech
    short: dict[int, str] = field(default_factory=dict)  # seat -> the clause that makes today's speech 30 s
    granted: list[int] = field(default_factory=list)  # seats the judge gave the word anyway
    alive: int = 0  # players at the table now


def speech_order(protocol: Protocol, ruleset: RuleSet, index: int, *, spoken: list[int], granted: list[int],
                 lost: dict[int, int]) -> SpeechOrder:
    """Day `index`'s speaking order (the rule set's `speech_start`, 000 4.3.1) with the 3rd-foul consequences: a
    lost speech is skipped (000 D6.4, 003 l.73), a short one is 30 s (000 S7.8); the judge may grant the word anyway.

    `spoken` and `granted`: that day's seats, as stored on the day; `lost`: seat -> the day whose speech its 3rd
    foul costs (the seat's stored `speech_lost_day`); it counts only while the seat has exactly 3 fouls.
    """
    living = alive_now(protocol)
    at_table = set(living) | set(protocol.days[index - 1].out)
    order = [s for s in speaking_order(protocol, ruleset, index) if s in at_table]
    if not order:
        return SpeechOrder(None, [], list(spoken), None, alive=len(living))
    fouls = {e.seat: e.fouls for e in protocol.seats}
    silenced: dict[int, str] = {}
    short: dict[int, str] = {}
    for seat, day in lost.items():
        # the rule set's speech foul (the 3rd with `foul_limit` 4: 000 D6.4, 003 l.73)
        if day != index or fouls.get(seat) != ruleset.speech_foul or seat not in order or seat in granted:
            continue
        effect, clause = third_foul_speech(ruleset, alive=len(living))
        if effect == SPEECH_LOST:
            silenced[seat] = clause
        elif effect == SPEECH_SHORT:
            short[seat] = clause
    current = next((s for s in order if s not in spoken and s not in silenced), None)
    return SpeechOrder(order[0], order, list(spoken), current, silenced, short, list(granted), len(living))
