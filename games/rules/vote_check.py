"""The validator's reading of one day's vote (docs/rules.md I14–I21): which vote the day may hold, and whether the
recorded `out` is what the votes imply — through the one resolver of `votes`, the live entry's too."""

from __future__ import annotations

from typing import Any

from .i18n import N_, Text
from .problems import error, error_t, warning_t
from .protocol import Day, Tally
from .ruleset import cite
from .votes import (
    BAD_LIFT,
    DAY1_SINGLE_NOMINEE,
    INVALID,
    LIFT,
    MAIN_ROUND,
    NEGATIVE,
    NOT_THE_TIED,
    OPENING_CLAUSES,
    SECOND_TIE,
    UNIQUE_MAXIMUM,
    WRONG_SUM,
    VoteResolution,
    active_nominees,
    opening_out,
    resolve_vote,
    vote_opening,
)


class VoteCheck:
    """docs/rules.md I14–I21 for one day: which vote is allowed, and whether `out` is what the recorded votes imply."""

    def __init__(self, replay: Any, day: Day, number: int, where: str, alive_count: int, *,
                 still_open: bool = False) -> None:
        # `replay`: the validator's walk (validate.Replay, which imports this module): its rule set, its problems,
        # the cancelled votes
        self.replay, self.rs, self.day, self.number = replay, replay.ruleset, day, number
        self.still_open = still_open  # the day is being entered: a missing round or `out` is not an error yet
        self.where, self.alive_count = where, alive_count
        self.problems = replay.problems
        # docs/rules.md A18: under 002 the Day-1 outcomes (I.6.18.5–18.6) are unintelligible → only warn.
        self.outcome_problem = warning_t if number == 1 and self.rs.day1_outcome_warn_only else error_t

    def cite(self, *refs: str) -> str:
        return cite(self.rs, *refs)

    def run(self) -> None:
        day = self.day
        self._check_out_plausible()
        has_vote = day.votes is not None or bool(day.revotes) or day.lift is not None
        cancelled = self.replay.cancelled.get(self.number)
        if cancelled:
            if has_vote:
                self.problems.append(error(f"{self.where}.votes", cancelled))
            if day.out:
                self.problems.append(error_t(f"{self.where}.out", N_("%(reason)s; nobody leaves by vote"),
                                             reason=cancelled))
            return
        if day.votes is None:
            if has_vote:
                self.problems.append(error_t(f"{self.where}.votes", N_("000 P7.5: a re-vote or lift vote needs the "
                                                                       "main round recorded")))
            self._check_without_votes()
            return
        self._check_with_votes()

    # -- plausibility, always
    def _check_out_plausible(self) -> None:
        out, here = self.day.out, f"{self.where}.out"
        if len(set(out)) != len(out):
            self.problems.append(error_t(here, N_("000 4.4.15: a seat leaves once (got %(got)s)"), got=str(out)))
        nominees = active_nominees(self.day)
        for seat in dict.fromkeys(out):
            if nominees is not None and seat not in nominees:
                self.problems.append(error_t(here, N_("%(clause)s: seat %(seat)s was not nominated on D%(day)s"),
                                             clause=self.cite('000 4.4.15', '003 l.60'), seat=seat, day=self.number))
        if out and len(set(out)) >= self.alive_count:
            self.problems.append(error_t(here, N_("%(clause)s: not every player at the table can leave by vote "
                                                  "(%(out)s of %(alive)s)"),
                                         clause=self.cite('000 S7.10', '002 I.8.6'), out=len(set(out)),
                                         alive=self.alive_count))

    # -- votes not recorded: only what nominations alone decide
    def _check_without_votes(self) -> None:
        nominees = active_nominees(self.day)
        if nominees is None:
            return
        opening = vote_opening(nominees, self.number)
        if opening == MAIN_ROUND:
            return
        self._compare_out(opening_out(opening, nominees), self.cite(*OPENING_CLAUSES[opening]))

    def _compare_out(self, implied: list[int], clause: str) -> None:
        if self.still_open and not self.day.out:
            return
        if sorted(set(self.day.out)) != sorted(implied):
            self.problems.append(self.outcome_problem(
                f"{self.where}.out",
                N_("%(clause)s: on D%(day)s the votes put out %(implied)s, the protocol says %(out)s"),
                clause=clause, day=self.number, implied=_seats(implied), out=_seats(self.day.out)))

    # -- votes recorded
    def _check_with_votes(self) -> None:
        day, nominees = self.day, active_nominees(self.day)
        if nominees is not None:
            if len(nominees) == 0:
                self.problems.append(error_t(f"{self.where}.votes", N_("%(clause)s: a vote needs nominees"),
                                             clause=self.cite('000 4.4.5', '002 I.6.10')))
                return
            if vote_opening(nominees, self.number) == DAY1_SINGLE_NOMINEE:
                clause = self.cite(*OPENING_CLAUSES[DAY1_SINGLE_NOMINEE])
                self.problems.append(self.outcome_problem(
                    f"{self.where}.votes", N_("%(clause)s: no vote on Day 1 with a single nominee"), clause=clause))
                self._compare_out([], clause)
                return
            seats = [t.seat for t in day.votes or []]
            if seats != nominees:
                self.problems.append(error_t(f"{self.where}.votes",
                                             N_("%(clause)s: the main round is voted on the nominees in nomination "
                                                "order %(nominees)s (got %(got)s)"),
                                             clause=self.cite('000 4.4.5', '001 r.23', '002 I.6.10', '003 l.53'),
                                             nominees=_seats(nominees), got=_seats(seats)))
                return
        implied = self._resolve()
        if implied is not None:
            self._compare_out(implied, self.cite("000 4.4.15", "002 I.6.18", "003 l.60"))

    def _resolve(self) -> list[int] | None:
        """docs/rules.md I17–I20 through the one vote resolver (`votes.resolve_vote`): the count of each round, re-votes
        among the tied, the lift vote. None when undecidable."""
        day = self.day
        rounds: list[list[Tally]] = [day.votes or [], *day.revotes]
        resolution = resolve_vote(rounds, day.lift, alive=self.alive_count, day=self.number,
                                  lift_bans=self.rs.lift_bans, non_voters_to_last=self.rs.non_voters_to_last)
        here = self.where + (".votes" if resolution.round in (None, 0) else f".revotes[{(resolution.round or 1) - 1}]")
        if resolution.step == INVALID and resolution.fault != BAD_LIFT:
            self._round_fault(here, resolution, [t.seat for t in rounds[resolution.round or 0]])
            return None
        if resolution.by == UNIQUE_MAXIMUM:
            self._no_more_rounds(resolution.round or 0, len(rounds), Text(N_("a unique maximum decides")),
                                 lift_follows=False)
            return list(resolution.out or ())
        if resolution.by == SECOND_TIE:
            self._no_more_rounds(resolution.round or 0, len(rounds),
                                 Text(N_("a second tie on the same seats goes to the lift vote")), lift_follows=True)
            return self._lift(resolution)
        if resolution.ban is not None:  # 002 I.6.18.1: a Day-1 split of 5 or 10 already means night
            if day.lift is not None:
                self.problems.append(error_t(f"{self.where}.lift", _NO_LIFT, clause=resolution.ban.clause,
                                             n=len(resolution.tied), alive=self.alive_count))
            return []
        if self.still_open:
            return None
        self.problems.append(error_t(f"{self.where}.revotes", N_("%(clause)s: the tie %(tied)s needs a re-vote"),
                                     clause=self.cite('000 4.4.14', '001 r.31', '002 I.6.18', '003 l.60'),
                                     tied=_seats(list(resolution.tied))))
        return None

    def _round_fault(self, here: str, resolution: VoteResolution, seats: list[int]) -> None:
        """docs/rules.md I17–I18: a re-vote among exactly the tied; votes >= 0, one per living player, each candidate
        once (000 4.4.11–4.4.14)."""
        if resolution.fault == NOT_THE_TIED:
            self.problems.append(error_t(here, N_("%(clause)s: the re-vote is among exactly the tied seats "
                                                  "%(tied)s (got %(got)s)"),
                                         clause=self.cite('000 4.4.14', '001 r.32', '002 I.6.18.2', '003 l.60'),
                                         tied=_seats(list(resolution.tied)), got=_seats(seats)))
            return
        clause = self.cite("000 4.4.12", "001 r.27", "002 I.6.15", "003 l.58")
        if resolution.fault == NEGATIVE:
            self.problems.append(error_t(here, N_("%(clause)s: votes cannot be negative"), clause=clause))
        elif resolution.fault == WRONG_SUM:
            tallies = [self.day.votes or [], *self.day.revotes][resolution.round or 0]
            self.problems.append(error_t(here, N_("%(clause)s: votes must sum to the %(alive)s living players "
                                                  "(got %(got)s)"), clause=clause, alive=self.alive_count,
                                         got=sum(t.votes for t in tallies)))
        else:
            self.problems.append(error_t(here, N_("%(clause)s: each candidate is counted once"), clause=clause))

    def _no_more_rounds(self, k: int, total: int, why: Text, *, lift_follows: bool) -> None:
        clause = self.cite("000 4.4.14", "001 r.33", "002 I.6.18.3", "003 l.60")
        if k + 1 < total:
            self.problems.append(error_t(f"{self.where}.revotes[{k}]", N_("%(clause)s: %(why)s; no further re-vote"),
                                         clause=clause, why=why))
        if self.day.lift is not None and not lift_follows:
            self.problems.append(error_t(f"{self.where}.lift", N_("%(clause)s: %(why)s; no lift vote"), clause=clause,
                                         why=why))

    def _lift(self, resolution: VoteResolution) -> list[int] | None:
        """docs/rules.md I19–I20: the lift vote after a second tie, unless a ban holds; it passes with more than half
        the table (the resolver decides; here the problems are named)."""
        lift, alive, tied = self.day.lift, self.alive_count, list(resolution.tied)
        if resolution.ban is not None:
            if lift is not None:
                self.problems.append(error_t(f"{self.where}.lift", _NO_LIFT, clause=resolution.ban.clause, n=len(tied),
                                             alive=alive))
            return []
        clause = self.cite("000 4.4.14", "001 r.34", "002 I.6.18.4", "003 l.62")
        if resolution.step == LIFT:
            if self.still_open:
                return None
            self.problems.append(error_t(f"{self.where}.lift", N_("%(clause)s: a second tie on %(tied)s needs a "
                                                                  "lift vote"), clause=clause, tied=_seats(tied)))
            return None
        if resolution.step == INVALID:
            self.problems.append(error_t(f"{self.where}.lift", N_("%(clause)s: the lift vote counts 0..%(alive)s "
                                                                  "hands (got %(got)s)"),
                                         clause=clause, alive=alive, got=lift))
            return None
        return list(resolution.out or ())


_NO_LIFT = N_("%(clause)s: no lift vote of %(n)s at %(alive)s players; night falls")


def _seats(seats: list[int]) -> str:
    return "[" + ", ".join(str(s) for s in seats) + "]" if seats else Text(N_("nobody"))
