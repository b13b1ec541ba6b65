"""The game flow as the live entry follows it, pure: who is at the table, where the day's vote stands, when the game
is over, what awaits the head judge's approval (docs/rules.md, "Voting" and "Game end").

The vote itself is resolved by `votes.resolve_vote`, the same resolver the validator uses; the game's end is the
validator's replay (`validate.Replay`), so the live screen and the validator never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .i18n import Text
from .protocol import JudgeExtra, Protocol
from .ruleset import RuleSet, cite
from .validate import GameEnd, Replay, active_nominees, vote_cancellations
from .votes import (
    DECIDED,
    LIFT,
    MAIN_ROUND,
    OPENING_CLAUSES,
    SINGLE_NOMINEE_LEAVES,
    UNIQUE_MAXIMUM,
    VoteResolution,
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
