"""Who voted for whom (docs/rules.md I47–I50): the counts a day's voters give, and the checks of the voters against
the table, the candidates and the counts. Pure: plain data in, plain data out.

A day may record, beside the counts, each living player's vote: `Day.voters` (voter seat -> candidate seat) for the
main round, `Day.revote_voters` (one such map per re-vote, parallel to `Day.revotes`) and `Day.lift_voters`
(voter seat -> a raised hand) for the lift vote. A living player missing from a round's map raised no hand: he counts
for the last candidate where the rule set says so (`RuleSet.non_voters_to_last`: 000 4.4.12, 001 r.27, 002 I.6.15,
003 l.58), else he abstains; missing from the lift vote, he is against (002 I.6.18.4 "большинство воздержалось").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from .facts import alive_at_day_start
from .i18n import N_, Text
from .problems import Problem, error_t
from .protocol import Day, Protocol, Tally
from .ruleset import RuleSet, cite
from .votes import active_nominees, round_leaders


def alive_at_vote(protocol: Protocol, number: int) -> set[int]:
    """The seats at the table when Day `number`'s vote is held: those of the day's start less the removals of that
    day before the vote result."""
    removed = {r.seat for r in protocol.removals if r.at == f"D{number}" and not r.after_vote}
    return set(alive_at_day_start(protocol, number)) - removed


def round_counts(candidates: Sequence[int], voters: Mapping[int, int], alive: set[int], *,
                 non_voters_to_last: bool) -> list[Tally]:
    """The count of a round from its voters: each living voter's vote for his candidate; the living players who
    raised no hand for the last candidate where the rule set says so."""
    counts = Counter(c for v, c in voters.items() if v in alive and c in candidates)
    if non_voters_to_last and candidates:
        counts[candidates[-1]] += len(alive - set(voters))
    return [Tally(seat=c, votes=counts[c]) for c in candidates]


def lift_count(lift_voters: Mapping[int, bool], alive: set[int]) -> int:
    """The hands raised for lifting the tied (the players not listed are against)."""
    return sum(1 for v, raised in lift_voters.items() if raised and v in alive)


def fill_counts(protocol: Protocol, ruleset: RuleSet) -> None:
    """Derive the counts a day gives only by its voters (docs/rules.md I47): the main round's candidates are the
    nominees, a re-vote's the leaders of the round before. Counts already given are kept (and checked later)."""
    for number, day in enumerate(protocol.days, start=1):
        if day.voters is None and not day.revote_voters and day.lift_voters is None:
            continue
        alive = alive_at_vote(protocol, number)
        to_last = ruleset.non_voters_to_last
        if day.votes is None and day.voters is not None:
            nominees = active_nominees(day)
            if nominees:
                day.votes = round_counts(nominees, day.voters, alive, non_voters_to_last=to_last)
        if not day.revotes:  # re-votes given by their voters only
            for voters in day.revote_voters or []:
                previous = day.revotes[-1] if day.revotes else day.votes
                if not previous:
                    break
                day.revotes.append(round_counts(round_leaders(previous), voters, alive, non_voters_to_last=to_last))
        if day.lift is None and day.lift_voters is not None:
            day.lift = lift_count(day.lift_voters, alive)


def check_day_voters(day: Day, where: str, alive: set[int], ruleset: RuleSet) -> list[Problem]:
    """docs/rules.md I47–I50 for one day, `alive` being the table at the vote."""
    problems: list[Problem] = []
    rounds: list[tuple[dict[int, int] | None, list[Tally] | None, str]] = [(day.voters, day.votes, f"{where}.voters")]
    if day.revote_voters is not None:
        if len(day.revote_voters) != len(day.revotes):
            problems.append(error_t(f"{where}.revote_voters", N_(
                "docs/rules.md I47: one map of voters per re-vote (%(revotes)s re-votes, got %(got)s)"),
                revotes=len(day.revotes), got=len(day.revote_voters)))
        rounds += [(voters, day.revotes[k] if k < len(day.revotes) else None, f"{where}.revote_voters[{k}]")
                   for k, voters in enumerate(day.revote_voters)]
    for voters, tallies, here in rounds:
        if voters is not None:
            problems += _check_round(voters, tallies, here, alive, ruleset)
    if day.lift_voters is not None:
        problems += _check_lift(day, f"{where}.lift_voters", alive, ruleset)
    return problems


def _not_at_table(here: str, voter: int) -> Problem:
    return error_t(f"{here}.{voter}", N_("docs/rules.md I48: only a player at the table votes; seat %(seat)s is "
                                          "not there at this vote"), seat=voter)


def _check_round(voters: dict[int, int], tallies: list[Tally] | None, here: str, alive: set[int],
                 ruleset: RuleSet) -> list[Problem]:
    if tallies is None:
        return [error_t(here, N_("docs/rules.md I47: the voters need the round's candidates: the day's nominations "
                                 "or the counts"))]
    problems = []
    candidates = [t.seat for t in tallies]
    once = cite(ruleset, "000 4.4.11", "001 r.26", "002 I.6.14", "003 l.58")
    for voter, candidate in voters.items():
        if voter not in alive:
            problems.append(_not_at_table(here, voter))
        if candidate not in candidates:
            problems.append(error_t(f"{here}.{voter}", N_("%(clause)s: seat %(seat)s votes for one of the round's "
                                                          "candidates %(candidates)s (got %(got)s)"),
                                    clause=once, seat=voter, candidates=_seats(candidates), got=candidate))
    if problems:
        return problems
    derived = round_counts(candidates, voters, alive, non_voters_to_last=ruleset.non_voters_to_last)
    if [t.votes for t in derived] != [t.votes for t in tallies]:
        clause = cite(ruleset, "000 4.4.12", "001 r.27", "002 I.6.15", "003 l.58")
        rule = Text(N_("the players who raise no hand count for the last candidate")) \
            if ruleset.non_voters_to_last else Text(N_("the players who raise no hand abstain"))
        problems.append(error_t(here, N_("docs/rules.md I50 (%(clause)s, %(rule)s): the voters give %(derived)s, "
                                         "the counts say %(counts)s"),
                                clause=clause, rule=rule, derived=_counts(derived), counts=_counts(tallies)))
    return problems


def _check_lift(day: Day, here: str, alive: set[int], ruleset: RuleSet) -> list[Problem]:
    problems = [_not_at_table(here, voter) for voter in day.lift_voters or {} if voter not in alive]
    derived = lift_count(day.lift_voters or {}, alive)
    if not problems and day.lift is not None and derived != day.lift:
        problems.append(error_t(here, N_("docs/rules.md I50 (%(clause)s): %(derived)s hands raised by the voters, "
                                         "the count says %(count)s"),
                                clause=cite(ruleset, "000 4.4.14", "001 r.34", "002 I.6.18.4", "003 l.62"),
                                derived=derived, count=day.lift))
    return problems


def _seats(seats: Sequence[int]) -> str:
    return "[" + ", ".join(str(s) for s in seats) + "]"


def _counts(tallies: Sequence[Tally]) -> str:
    return ", ".join(f"{t.seat}: {t.votes}" for t in tallies) or "—"
