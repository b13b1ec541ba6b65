"""Protocol validation: the flow invariants docs/rules.md I1–I31 (I32–I40 live in `limits.py`).

`validate(protocol, ruleset)` returns a list of `Problem`s. Each message starts with the clause that decides it,
each `field` points into the protocol: `seats[6]` is seat 6 (the seat number), every other index is the 0-based
position in its list (`days[1]` is Day 2, `nights[0]` is Night 1, `removals[0]` the first removal).

The core is a replay of the game log in the order of docs/rules.md I4: D1, N1, D2, N2, … Inside a day the removals
before the vote come first, then the vote and the players it puts out, then the removals after the vote result.
Inside a night the removals come first, then the kill (the victim leaves at the end of the night, so a Don or a
Sheriff killed that night still checks that night: 000 4.5.4, 002 I.7.3.1). The replay tracks who is at the table,
stops at the first moment a team has won or a draw rule fires, and checks every event against that state.

Rule-set differences come from `RuleSet` fields only. A clause is cited for the rule book of the rule set
(`ruleset.cite`), falling back to the first reference given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .checks import check_fouls, check_phase_count, check_removal_entries, check_roles, check_seats
from .facts import best_move_right, killed_at_night, parse_phase, phase_code, phase_exists
from .i18n import N_, NC_, Text
from .limits import check_scoring
from .problems import Problem, error_t, warning_t
from .protocol import (
    BLACK,
    BLACK_ROLES,
    DON,
    DRAW,
    PPK,
    RED,
    RESULTS,
    ROLE_COUNTS,
    SEATS,
    SHERIFF,
    Day,
    Night,
    Protocol,
    Removal,
    team_of,
)
from .ruleset import (
    CANCEL_NOMINEE_ONLY,
    CANCEL_SAME_DAY_OR_NEXT,
    CANCEL_UNLESS_KILLED_OR_LEAVING,
    DRAW_NONE,
    DRAW_THREE_NIGHTS,
    DRAW_THREE_NIGHTS_AND_DAYS,
    THREE_MISSES_RED_WIN,
    RuleSet,
    cite,
)
from .summary import check_summary
from .vote_check import VoteCheck
from .voters import check_day_voters, fill_counts
from .votes import (
    active_nominees,
)


def validate(protocol: Protocol, ruleset: RuleSet, *, finished: bool = True) -> list[Problem]:
    """Every problem of the protocol under the rule set. `finished=False` for a game still being entered.

    The counts a day gives only by its voters are filled in first (`voters.fill_counts`), so the caller stores them.
    A summary protocol (days and nights unknown) is checked by what it holds (docs/rules.md I46)."""
    if protocol.summary:
        return validate_summary(protocol, ruleset, finished=finished)
    fill_counts(protocol, ruleset)
    problems: list[Problem] = []
    problems += check_seats(protocol, ruleset)
    problems += check_roles(protocol, ruleset, finished=finished)
    problems += check_fouls(protocol, ruleset)
    problems += check_removal_entries(protocol, ruleset)
    problems += check_phase_count(protocol)
    replay = Replay(protocol, ruleset, in_progress=not finished)
    replay.run()
    problems += replay.problems
    problems += check_result(protocol, ruleset, replay, finished=finished)
    problems += check_best_move(protocol, ruleset, replay)
    problems += check_colours(protocol, ruleset)
    problems += check_scoring(protocol, ruleset)
    return problems


def validate_summary(protocol: Protocol, ruleset: RuleSet, *, finished: bool = True) -> list[Problem]:
    """docs/rules.md I46: a summary protocol is valid when what it gives is consistent — the seats, the roles, the
    fouls within the limit, its departures, a result, the best move's right from what is given, the extras."""
    problems = check_seats(protocol, ruleset) + check_roles(protocol, ruleset, finished=finished)
    problems += check_fouls(protocol, ruleset) + check_summary(protocol, ruleset)
    if finished and protocol.result is None:
        problems.append(error_t("result", N_("000 P7.7 (docs/rules.md A4): a finished game needs its result")))
    elif protocol.result is not None and protocol.result not in RESULTS:
        problems.append(error_t("result", N_("000 P7.7 (docs/rules.md A4): the result is red, black or draw "
                                             "(got %(got)s)"), got=repr(protocol.result)))
    problems += check_best_move(protocol, ruleset, None)
    problems += check_colours(protocol, ruleset)
    problems += check_scoring(protocol, ruleset)
    return problems


# ---------------------------------------------------------------------------------------------------- helpers

def roles_complete(protocol: Protocol) -> bool:
    """All ten roles entered with the right counts, so teams can be counted."""
    roles = [entry.role for entry in protocol.seats]
    return len(roles) == 10 and Counter(roles) == Counter(ROLE_COUNTS)


def win_condition(alive: set[int] | list[int], roles: Mapping[int, str | None]) -> str | None:
    """001 r.4, 002 I.1.4, 003 l.64 (docs/rules.md A32): red when no black is left; black when blacks >= reds."""
    blacks = sum(1 for seat in alive if roles.get(seat) in BLACK_ROLES)
    if blacks == 0:
        return RED
    if blacks >= len(alive) - blacks:
        return BLACK
    return None


def other_team(team: str | None) -> str | None:
    return {RED: BLACK, BLACK: RED}.get(team or "")


# ---------------------------------------------------------------------------------------------------- draw rules

# docs/rules.md D9 / A21: which rule fires, after how many quiet phases, and with which result.
_DRAW_CLAUSE = {
    DRAW_THREE_NIGHTS_AND_DAYS: Text(N_("000 S7.9: three nights and three days in a row without anyone leaving")),
    DRAW_THREE_NIGHTS: Text(N_("002 I.8.5: three shooting nights in a row with the table unchanged")),
    THREE_MISSES_RED_WIN: Text(N_("003 l.83: three mafia misses in a row with the same number of players")),
}
_DRAW_RESULT = {DRAW_THREE_NIGHTS_AND_DAYS: DRAW, DRAW_THREE_NIGHTS: DRAW, THREE_MISSES_RED_WIN: RED}


class QuietStreak:
    """Counts phases in which nobody left the table; `after_phase` returns the result when the draw rule fires."""

    def __init__(self, draw_rule: str) -> None:
        self.rule = draw_rule
        self.count = 0

    @property
    def clause(self) -> str:
        return _DRAW_CLAUSE.get(self.rule, "")

    def after_phase(self, kind: str, quiet: bool) -> str | None:
        if self.rule == DRAW_NONE or self.rule not in _DRAW_RESULT:
            return None  # 001: no rule, the game goes on
        if not quiet:
            self.count = 0
            return None
        if self.rule == DRAW_THREE_NIGHTS_AND_DAYS:
            # 000 S7.9: counted from a night: N_k, D_k+1, N_k+1, D_k+2, N_k+2, D_k+3.
            if self.count == 0 and kind == "D":
                return None
            self.count += 1
            return DRAW if self.count == 6 else None
        # 002 I.8.5 / 003 l.83: three nights (the days between included) with no change; night 0 is not counted.
        if kind == "N":
            self.count += 1
            if self.count == 3:
                return _DRAW_RESULT[self.rule]
        return None


# ---------------------------------------------------------------------------------------------------- vote cancellation


@dataclass(frozen=True)
class _CancelRule:
    """Which day's vote a removal cancels, as an offset from the removal's phase number (None: none)."""

    before_vote: int | None  # a removal on day d before the vote result
    after_vote: int | None  # a removal on day d after the vote result (or after night was announced)
    night: int | None  # a removal on night n (offset to day n)
    nominee_only: bool  # only a removed nominee cancels (003 l.81)
    clauses: tuple[str, str, str]  # before / after / night
    # The previous night's victim removed in his last word: 002 I.8.1 exempts him ("кроме случаев, когда этот игрок
    # был убит ночью"); 000 S7.1 has no such exception (a DQ or 4th foul cancels that day's vote).
    night_victim_exempt: bool = True


_CANCEL_RULES = {
    # 000 S7.1: no vote that day; S7.2: removed after the result and not the one leaving → no vote next day.
    # A night removal is read as S7.1 for the coming day (the text does not distinguish; same as 002 I.8.1).
    # S7.2 exempts only the player leaving by that vote; S7.1 has no exception for the night victim's last word.
    CANCEL_SAME_DAY_OR_NEXT: _CancelRule(0, 1, 1, False, ("000 S7.1", "000 S7.2", "000 S7.1"),
                                         night_victim_exempt=False),
    # 002 I.8.1: the nearest vote is not held unless the removed player was killed that night or is leaving by
    # this vote; I.8.2: after the result (or after night is announced) → no vote next day.
    CANCEL_UNLESS_KILLED_OR_LEAVING: _CancelRule(0, 1, 1, False, ("002 I.8.1", "002 I.8.2", "002 I.8.1")),
    # 003 l.81: only a removed nominee sends the city to sleep without a vote.
    CANCEL_NOMINEE_ONLY: _CancelRule(0, None, None, True, ("003 l.81", "003 l.81", "003 l.81")),
}


def is_farewell_removal(protocol: Protocol, removal: Removal) -> bool:
    """A removal of a player who already left by vote or kill, during his last word (000 S7.11, 002 I.8.1, II.3.5).

    Such a player leaves no second time; his penalty counts. His removal cancels no vote, except the night victim's
    under 000 S7.1 (see `_CancelRule.night_victim_exempt`).
    """
    phase = parse_phase(removal.at)
    if phase is None or not phase_exists(protocol, *phase):
        return False
    kind, number = phase
    if kind == "N":
        return protocol.nights[number - 1].kill == removal.seat
    if removal.after_vote:
        return removal.seat in protocol.days[number - 1].out
    # the morning farewell of the previous night's victim
    return number >= 2 and len(protocol.nights) >= number - 1 and protocol.nights[number - 2].kill == removal.seat


def vote_cancellations(protocol: Protocol, ruleset: RuleSet) -> dict[int, str]:
    """Day number -> the message why its vote is not held (docs/rules.md I16, A35)."""
    rule = _CANCEL_RULES.get(ruleset.vote_cancel_rule)
    cancelled: dict[int, str] = {}
    if rule is None:
        return cancelled
    for removal in protocol.removals:
        phase = parse_phase(removal.at)
        if phase is None or not phase_exists(protocol, *phase):
            continue
        kind, number = phase
        if is_farewell_removal(protocol, removal):
            voted_out = kind == "D" and removal.after_vote
            if voted_out or rule.night_victim_exempt:
                continue  # 000 S7.2 / 002 I.8.1: the one leaving by this vote; 002 I.8.1: the night victim
            # 000 S7.1: the night victim's DQ / 4th foul in his morning last word cancels that day's vote.
            day = number + 1 if kind == "N" else number
            cancelled.setdefault(day, _no_vote_after(rule.clauses[0], day, removal))
            continue
        if kind == "N":
            offset, clause = rule.night, rule.clauses[2]
        elif removal.after_vote:
            offset, clause = rule.after_vote, rule.clauses[1]
        else:
            offset, clause = rule.before_vote, rule.clauses[0]
            if rule.nominee_only and removal.seat not in (active_nominees(protocol.days[number - 1]) or []):
                offset = None
        if offset is None:
            continue
        day = number + offset
        cancelled.setdefault(day, _no_vote_after(clause, day, removal))
    return cancelled


def _no_vote_after(clause: str, day: int, removal: Removal) -> Text:
    return Text(N_("%(clause)s: no vote on D%(day)s after the removal of seat %(seat)s at %(at)s"),
                clause=clause, day=day, seat=removal.seat, at=removal.at)


# ---------------------------------------------------------------------------------------------------- replay


@dataclass
class GameEnd:
    phase: str  # "D3", "N2"
    result: str | None  # None: a removal ended a game whose offender's team is not entered
    clause: str


@dataclass
class Replay:
    """Walks the log in order, tracking the table; collects flow problems (docs/rules.md I4–I5, I11–I23, I28–I30)."""

    protocol: Protocol
    ruleset: RuleSet
    problems: list[Problem] = field(default_factory=list)
    alive: set[int] = field(default_factory=lambda: set(SEATS))
    left_at: dict[int, str] = field(default_factory=dict)  # seat -> phase it left in
    end: GameEnd | None = None
    alive_before_first_kill: set[int] | None = None
    in_progress: bool = False  # the last recorded day may still be going on: nothing is "missing" there yet

    def __post_init__(self) -> None:
        self.roles = {entry.seat: entry.role for entry in self.protocol.seats}
        self.teams_known = roles_complete(self.protocol)
        self.cancelled = vote_cancellations(self.protocol, self.ruleset)
        self.streak = QuietStreak(self.ruleset.draw_rule)
        self.removals_at: dict[str, list[tuple[int, Removal]]] = {}
        for index, removal in enumerate(self.protocol.removals):
            if parse_phase(removal.at) and removal.seat in SEATS:
                self.removals_at.setdefault(removal.at, []).append((index, removal))

    # -- driver
    def run(self) -> None:
        protocol = self.protocol
        for index in range(max(len(protocol.days), len(protocol.nights))):
            if index < len(protocol.days):
                self._phase("D", index, self._day)
            if index < len(protocol.nights):
                self._phase("N", index, self._night)

    def _phase(self, kind: str, index: int, walk: Callable[[int, str, str], None]) -> None:
        code = phase_code(kind, index + 1)
        where = f"{'days' if kind == 'D' else 'nights'}[{index}]"
        if self.end is not None:
            self._after_end(where, code)
            return
        before = len(self.alive)
        walk(index, code, where)
        if self.end is None:
            quiet = len(self.alive) == before
            outcome = self.streak.after_phase(kind, quiet)
            if outcome is not None:
                self.end = GameEnd(code, outcome, self.streak.clause)

    def _after_end(self, where: str, code: str) -> None:
        end = self.end
        if end is None:
            return
        self.problems.append(error_t(where, N_("%(clause)s: the game ended at %(phase)s (%(result)s); "
                                               "%(code)s must not be recorded"),
                                     clause=end.clause, phase=end.phase, result=result_word(end.result), code=code))
        for index, _removal in self.removals_at.get(code, []):
            self.problems.append(error_t(f"removals[{index}]", N_("%(clause)s: the game ended at %(phase)s; "
                                                                  "no removal at %(code)s"),
                                         clause=end.clause, phase=end.phase, code=code))

    # -- departures
    def _leave(self, seat: int, code: str, where: str, how: Text, clause: str = "docs/rules.md I5") -> bool:
        """docs/rules.md I5: a seat leaves once, and only from the table."""
        if seat not in SEATS:
            self.problems.append(error_t(where, N_("000 4.1.1: seats are 1..10 (got %(got)s)"), got=seat))
            return False
        if seat not in self.alive:
            self.problems.append(error_t(where, N_("%(clause)s: seat %(seat)s cannot be %(how)s at %(code)s: "
                                                   "%(gone)s"),
                                         clause=clause, seat=seat, how=how, code=code, gone=self._gone(seat)))
            return False
        self.alive.discard(seat)
        self.left_at[seat] = code
        return True

    def _gone(self, seat: int) -> Text:
        if seat in self.left_at:
            return Text(N_("it left the game at %(phase)s"), phase=self.left_at[seat])
        return Text(N_("it is not at the table"))

    def _check_win(self, code: str, clause: str) -> None:
        if self.end is None and self.teams_known:
            winner = win_condition(self.alive, self.roles)
            if winner is not None:
                self.end = GameEnd(code, winner, clause)

    def _removals(self, code: str, *, after_vote: bool | None, farewell: set[int]) -> None:
        for index, removal in self.removals_at.get(code, []):
            if after_vote is not None and removal.after_vote != after_vote:
                continue
            if self.end is not None:
                continue  # 000 S7.11: a removal after the deciding vote/kill does not change the result
            where = f"removals[{index}]"
            already_out = removal.seat in farewell or removal.seat in self.left_at
            if removal.reason == PPK and already_out:
                # docs/rules.md I5, I30: a ППК in the farewell minute (002 II.3.5) or by a player already out
                # (000 D6.8.5 interference, 003 l.135 hint) still awards the defeat; he leaves no second time.
                self._ppk_end(removal, code)
                continue
            if removal.seat in farewell:
                continue  # removed during his last word: no second departure (002 II.3.5, 000 S7.11)
            if not self._leave(removal.seat, code, where, Text(N_("removed"))):
                continue
            if removal.reason == PPK:
                self._ppk_end(removal, code)
            else:
                # 002 I.1.4 (docs/rules.md A5): a removal is a moment at which the win is checked.
                self._check_win(code, Text(N_("%(clause)s: the removal of seat %(seat)s decides the game"),
                                           clause=cite(self.ruleset, "002 I.1.4", "001 r.4", "003 l.64"),
                                           seat=removal.seat))

    def _ppk_end(self, removal: Removal, code: str) -> None:
        """000 D6.8, 002 II.3, 003 l.135: the offender's team is awarded the defeat; the game ends here."""
        if self.teams_known and self.end is None:
            winner = other_team(team_of(self.roles.get(removal.seat)))
            self.end = GameEnd(code, winner, Text(N_("%(clause)s: ppk against seat %(seat)s"),
                                                  clause=cite(self.ruleset, "000 D6.8", "002 II.3", "003 l.135"),
                                                  seat=removal.seat))

    # -- day
    def _day(self, index: int, code: str, where: str) -> None:
        day = self.protocol.days[index]
        number = index + 1
        self._check_nominations(day, where)
        # a malformed log may have more days than nights + 1 (reported by check_phase_count): do not crash
        previous_kill = self.protocol.nights[index - 1].kill if 1 <= index <= len(self.protocol.nights) else None
        self._removals(code, after_vote=False, farewell={previous_kill} if previous_kill else set())
        if self.end is not None:
            if day.votes is not None or day.revotes or day.lift is not None or day.out:
                self.problems.append(error_t(where, N_("%(clause)s: the game ended at %(code)s before the vote"),
                                             clause=self.end.clause, code=code))
            return
        alive_count = len(self.alive)
        self.problems += check_day_voters(day, where, set(self.alive), self.ruleset)
        still_open = self.in_progress and index == len(self.protocol.days) - 1 and \
            len(self.protocol.days) > len(self.protocol.nights)
        VoteCheck(self, day, number, where, alive_count, still_open=still_open).run()
        for seat in dict.fromkeys(day.out):
            self._leave(seat, code, f"{where}.out", Text(N_("voted out")),
                        cite(self.ruleset, "000 4.4.15", "003 l.60"))
        if day.out:
            self._check_win(code, Text(N_("%(clause)s: the vote of %(code)s decides the game"),
                                       clause=cite(self.ruleset, "002 I.1.4", "001 r.4", "003 l.64"), code=code))
        self._removals(code, after_vote=True, farewell=set(day.out))

    def _check_nominations(self, day: Day, where: str) -> None:
        """docs/rules.md I11–I13 (000 4.4.2–4.4.4; 001 r.20–22; 002 I.6.8–6.9; 003 l.24, l.47–49)."""
        if day.nominations is None:
            return
        rs = self.ruleset
        by_nominator: Counter[int] = Counter()
        nominated: set[int] = set()
        for k, nomination in enumerate(day.nominations):
            here = f"{where}.nominations[{k}]"
            for seat, who in ((nomination.by, Text(N_("nominator"))), (nomination.nominee, Text(N_("nominee")))):
                if seat not in SEATS:
                    self.problems.append(error_t(here, N_("000 4.4.2: the %(who)s is a seat 1..10 (got %(got)s)"),
                                                 who=who, got=seat))
                elif seat not in self.alive:
                    self.problems.append(error_t(here, N_("%(clause)s: the %(who)s seat %(seat)s is not at the table "
                                                          "(%(gone)s)"),
                                                 clause=cite(rs, '000 4.4.2', '002 I.6.8', '003 l.24'), who=who,
                                                 seat=seat, gone=self._gone(seat)))
            if nomination.withdrawn:
                if not rs.nomination_withdrawal:
                    self.problems.append(error_t(here, N_("%(clause)s: a nomination cannot be withdrawn under this "
                                                          "rule set (001 r.21, 003 l.49 only)"),
                                                 clause=cite(rs, '000 4.4.2', '002 I.6.9')))
                continue
            by_nominator[nomination.by] += 1
            if by_nominator[nomination.by] == 2:
                self.problems.append(error_t(here, N_("%(clause)s: seat %(seat)s already nominated on this day"),
                                             clause=cite(rs, '000 4.4.4', '001 r.22', '002 I.6.9', '003 l.47'),
                                             seat=nomination.by))
            if nomination.nominee in nominated:
                self.problems.append(error_t(here, N_("%(clause)s: seat %(seat)s is already nominated on this day"),
                                             clause=cite(rs, '000 4.4.3', '003 l.24'), seat=nomination.nominee))
            nominated.add(nomination.nominee)

    # -- night
    def _night(self, index: int, code: str, where: str) -> None:
        night = self.protocol.nights[index]
        at_start = set(self.alive)
        self._removals(code, after_vote=None, farewell={night.kill} if night.kill else set())
        if night.kill is not None:
            if self.end is not None:
                self.problems.append(error_t(f"{where}.kill", N_("%(clause)s: the game ended at %(code)s "
                                                                 "before the kill"),
                                             clause=self.end.clause, code=code))
            elif self._leave(night.kill, code, f"{where}.kill", Text(N_("killed")),
                             cite(self.ruleset, "000 4.5.4", "002 I.7.3.1", "003 l.29")):
                if index == 0:
                    self.alive_before_first_kill = self.alive | {night.kill}
                self._check_win(code, Text(N_("%(clause)s: the kill of seat %(seat)s at %(code)s decides the game"),
                                           clause=cite(self.ruleset, "002 I.1.4", "001 r.4", "003 l.64"),
                                           seat=night.kill, code=code))
        self._check_checks(night, at_start, where)

    def _check_checks(self, night: Night, at_start: set[int], where: str) -> None:
        """docs/rules.md I23: a check needs a Don / Sheriff alive at the night's start (000 4.5.6–4.5.8)."""
        for attr, role, clause in (("don_check", DON, cite(self.ruleset, "000 4.5.6", "002 I.7.5", "003 l.32")),
                                   ("sheriff_check", SHERIFF, cite(self.ruleset, "000 4.5.7", "002 I.7.6", "003 l.37"))):
            target = getattr(night, attr)
            if target is None:
                continue
            here = f"{where}.{attr}"
            if target not in SEATS:
                self.problems.append(error_t(here, N_("%(clause)s: a check names a seat 1..10 (got %(got)s)"),
                                             clause=clause, got=target))
                continue
            checker = next((seat for seat, r in self.roles.items() if r == role), None)
            if checker is None:
                continue  # roles not entered yet
            if checker not in at_start:
                self.problems.append(error_t(here, N_("%(clause)s: the %(role)s (seat %(seat)s) cannot check: "
                                                      "%(gone)s"),
                                             clause=clause, role=role, seat=checker, gone=self._gone(checker)))
            elif target == checker:
                self.problems.append(warning_t(here, N_("%(clause)s: seat %(seat)s checked itself"), clause=clause,
                                               seat=checker))
            elif target not in at_start:
                self.problems.append(warning_t(here, N_("%(clause)s: checked seat %(seat)s, who already left the game"),
                                               clause=clause, seat=target))


_RESULT_WORDS = {RED: NC_("game result", "red"), BLACK: NC_("game result", "black"),
                 DRAW: NC_("game result", "draw")}


def result_word(result: str | None) -> str:
    """A result code as a translatable word ("red"); an unknown code as is."""
    return _RESULT_WORDS.get(result or "", str(result))


# ---------------------------------------------------------------------------------------------------- result


def check_result(protocol: Protocol, ruleset: RuleSet, replay: Replay, *, finished: bool) -> list[Problem]:
    """docs/rules.md I28–I31: the declared result is the one the log reaches, at the moment it is reached."""
    result = protocol.result
    if result is not None and result not in RESULTS:
        return [error_t("result", N_("000 P7.7 (docs/rules.md A4): the result is red, black or draw (got %(got)s)"),
                        got=repr(result))]
    if result is None:
        return [error_t("result", N_("000 P7.7 (docs/rules.md A4): a finished game needs its result"))] if finished else []
    if not replay.teams_known:
        return []
    end = replay.end
    if end is None:
        return [error_t("result", N_("%(clause)s: the log ends without a win or draw condition, yet the result is "
                                     "%(result)s"),
                        clause=cite(ruleset, '002 I.1.4', '001 r.4', '003 l.64'), result=result_word(result))]
    if result != end.result:
        return [error_t("result", N_("%(clause)s: the game ended at %(phase)s with %(end)s, not %(result)s"),
                        clause=end.clause, phase=end.phase, end=result_word(end.result), result=result_word(result))]
    return []


# ---------------------------------------------------------------------------------------------------- best move


def check_best_move(protocol: Protocol, ruleset: RuleSet, replay: Replay | None) -> list[Problem]:
    """docs/rules.md I24–I25 (000 8.3, S7.12, BM-1..BM-3; 002 I.7.8–7.9; docs/rules.md D3, A28)."""
    numbers = protocol.best_move
    if numbers is None:
        return []
    entitled, clause = best_move_right(protocol, ruleset)
    if not entitled:
        return [error_t("best_move", N_("%(reason)s; a best move is recorded without that right"), reason=clause)]
    form = cite(ruleset, "000 BM-1", "002 I.7.8")
    problems = []
    if len(numbers) > 3:
        problems.append(error_t("best_move", N_("%(clause)s: a best move names at most 3 seats (got %(got)s)"),
                                clause=form, got=len(numbers)))
    if len(set(numbers)) != len(numbers):
        problems.append(error_t("best_move", N_("%(clause)s: the seats named must be distinct (got %(got)s)"),
                                clause=form, got=str(numbers)))
    victim = protocol.first_night_victim()
    at_table = (replay.alive_before_first_kill if replay else None) or set(SEATS)
    for seat in dict.fromkeys(numbers):
        if seat not in SEATS:
            problems.append(error_t("best_move", N_("%(clause)s: seats are 1..10 (got %(got)s)"), clause=form,
                                    got=seat))
        elif seat == victim:
            problems.append(warning_t("best_move", N_("docs/rules.md A28: seat %(seat)s named itself in its best move"),
                                      seat=seat))
        elif seat not in at_table:
            problems.append(warning_t("best_move", N_("docs/rules.md A28: seat %(seat)s had already left the game"),
                                      seat=seat))
    return problems


# ---------------------------------------------------------------------------------------------------- colours


def check_colours(protocol: Protocol, ruleset: RuleSet) -> list[Problem]:
    """docs/rules.md I27: a colour for the record is left by a night-killed player about another seat (002 III.5)."""
    killed = killed_at_night(protocol)
    problems = []
    per_seat: Counter[int] = Counter()
    for index, colour in enumerate(protocol.colours):
        where = f"colours[{index}]"
        if not ruleset.colours_enabled:
            problems.append(error_t(where, N_("%(source)s: this rule set has no colours for the record "
                                              "(002 III.5 only)"), source=ruleset.source))
            continue
        if colour.by not in killed:
            problems.append(error_t(where, N_("002 III.5 l.297: only a player killed at night leaves a colour "
                                              "(seat %(seat)s was not)"), seat=colour.by))
        if colour.target not in SEATS or colour.target == colour.by:
            problems.append(error_t(where, N_("002 III.5 l.297: the colour names another seat 1..10 (got %(got)s)"),
                                    got=colour.target))
        per_seat[colour.by] += 1
        if per_seat[colour.by] == 2:
            problems.append(warning_t(where, N_("002 III.5 l.297: seat %(seat)s left more than one colour"),
                                      seat=colour.by))
    return problems
