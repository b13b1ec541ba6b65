"""Recording who votes on the judge's screen (the club's `judge_records_voters`): a round entered by the raised hands
— each voter against one candidate; whoever raised no hand counts for the last candidate where the rule set says so
— and the lift vote by the hands raised for it (docs/rules.md I47–I49, games.rules.voters)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.live.base import Ctx
from games.rules.flow import alive_now
from games.rules.protocol import Protocol
from games.rules.ruleset import cite
from games.rules.voters import lift_count, round_counts


def table_at_vote(protocol: Protocol, index: int) -> set[int]:
    """The seats at the table for Day `index`'s vote (those it puts out included)."""
    return alive_now(protocol) | set(protocol.days[index - 1].out)


def _check_voters(ctx: Ctx, hands: dict[int, int], alive: set[int]) -> None:
    for voter in sorted(hands):
        if voter not in alive:
            ctx.refuse(_("docs/rules.md I48: only a player at the table votes; seat %(seat)s is not there.")
                       % {"seat": voter})


def counts_by_hands(ctx: Ctx, protocol: Protocol, index: int, candidates: list[int],
                    hands: dict[int, int]) -> list[int]:
    """A round's counts from the raised hands, refused when a voter is not at the table or a hand names no
    candidate of the round (000 4.4.11, one candidate a voter)."""
    alive = table_at_vote(protocol, index)
    _check_voters(ctx, hands, alive)
    for voter, candidate in sorted(hands.items()):
        if candidate not in candidates:
            ctx.refuse(_("%(clause)s: seat %(seat)s votes for one of the candidates %(candidates)s.") % {
                "clause": cite(ctx.ruleset, "000 4.4.11", "001 r.26", "002 I.6.14", "003 l.58"), "seat": voter,
                "candidates": ", ".join(str(c) for c in candidates)})
    tallies = round_counts(candidates, hands, alive, non_voters_to_last=ctx.ruleset.non_voters_to_last)
    return [t.votes for t in tallies]


def store_round_hands(day, hands: dict[int, int], *, main: bool) -> None:
    """The round's hands onto the day's row (`Day.voters`, the mafclub/1 shapes): the main round, or one more re-vote."""
    stored = dict(day.voters or {})
    as_json = {str(voter): candidate for voter, candidate in sorted(hands.items())}
    if main:
        stored["voters"] = as_json
    else:
        stored["revote_voters"] = [*stored.get("revote_voters", []), as_json]
    day.voters = stored


def lift_by_hands(ctx: Ctx, protocol: Protocol, index: int, day, hands: dict[int, int]) -> int:
    """The lift vote's count from the hands raised for it, stored as each player's answer (docs/rules.md I49)."""
    alive = table_at_vote(protocol, index)
    _check_voters(ctx, hands, alive)
    answers = {seat: bool(hands.get(seat)) for seat in sorted(alive)}
    day.voters = {**(day.voters or {}), "lift_voters": {str(seat): raised for seat, raised in answers.items()}}
    return lift_count(answers, alive)
