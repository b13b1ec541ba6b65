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

import re
from collections import Counter
from dataclasses import dataclass, field

from .facts import best_move_right, phase_code
from .i18n import N_, NC_, Text
from .limits import check_scoring
from .problems import Problem, error, error_t, warning_t
from .protocol import (
    BLACK,
    BLACK_ROLES,
    DON,
    DRAW,
    PPK,
    RED,
    REMOVAL_REASONS,
    RESULTS,
    ROLE_COUNTS,
    ROLES,
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
    opening_out,
    resolve_vote,
    vote_opening,
)

_PHASE = re.compile(r"^([DN])([1-9][0-9]*)$")


def validate(protocol: Protocol, ruleset: RuleSet, *, finished: bool = True) -> list[Problem]:
    """Every problem of the protocol under the rule set. `finished=False` for a game still being entered."""
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


# ---------------------------------------------------------------------------------------------------- helpers




def parse_phase(code: str) -> tuple[str, int] | None:
    """'D2' -> ('D', 2); None when malformed."""
    match = _PHASE.match(code or "")
    return (match.group(1), int(match.group(2))) if match else None


def phase_exists(protocol: Protocol, kind: str, number: int) -> bool:
    return number <= (len(protocol.days) if kind == "D" else len(protocol.nights))


def active_nominees(day: Day) -> list[int] | None:
    """The day's nominees in nomination order, withdrawn ones left out; None when nominations are not recorded."""
    if day.nominations is None:
        return None
    seen: list[int] = []
    for nomination in day.nominations:
        if not nomination.withdrawn and nomination.nominee not in seen:
            seen.append(nomination.nominee)
    return seen


def roles_complete(protocol: Protocol) -> bool:
    """All ten roles entered with the right counts, so teams can be counted."""
    roles = [entry.role for entry in protocol.seats]
    return len(roles) == 10 and Counter(roles) == Counter(ROLE_COUNTS)


def win_condition(alive: set[int] | list[int], roles: dict[int, str | None]) -> str | None:
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


# ---------------------------------------------------------------------------------------------------- static checks


def check_seats(protocol: Protocol, ruleset: RuleSet) -> list[Problem]:
    """docs/rules.md I1: ten seats numbered 1..10, each with a distinct player (000 4.1.1, P7.3; 002 I.1.1)."""
    clause = cite(ruleset, "000 4.1.1", "001 r.1", "002 I.1.1", "003 l.3")
    problems = []
    if len(protocol.seats) != 10:
        problems.append(error_t("seats", N_("%(clause)s: a game has exactly 10 seats (got %(got)s)"), clause=clause,
                                got=len(protocol.seats)))
    numbers = Counter(entry.seat for entry in protocol.seats)
    for number, count in sorted(numbers.items(), key=lambda item: str(item[0])):
        if number not in SEATS:
            problems.append(error_t("seats", N_("%(clause)s: seat numbers are 1..10 (got %(got)s)"), clause=clause,
                                    got=number))
        elif count > 1:
            problems.append(error_t(f"seats[{number}]", N_("%(clause)s: seat %(seat)s appears %(count)s times"),
                                    clause=clause, seat=number, count=count))
    seen: dict[str, int] = {}
    for entry in protocol.seats:
        name = (entry.player or "").strip().casefold()
        if not name:
            problems.append(error_t(f"seats[{entry.seat}].player", N_("000 P7.3: every seat needs a player")))
        elif name in seen:
            problems.append(error_t(f"seats[{entry.seat}].player",
                                    N_("000 P7.3: %(player)s already sits at seat %(seat)s"),
                                    player=entry.player.strip(), seat=seen[name]))
        else:
            seen[name] = entry.seat
    return problems


def check_roles(protocol: Protocol, ruleset: RuleSet, *, finished: bool) -> list[Problem]:
    """docs/rules.md I3: 6 К, 2 Ч, 1 Ш, 1 Д; roles may be missing while the game is entered (000 P7.4)."""
    clause = cite(ruleset, "002 I.1.1", "001 r.1", "003 l.3")
    problems = []
    for entry in protocol.seats:
        if entry.role is None:
            if finished:
                problems.append(error_t(f"seats[{entry.seat}].role", N_("000 P7.4: the role must be entered")))
        elif entry.role not in ROLES:
            problems.append(error_t(f"seats[{entry.seat}].role",
                                    N_("000 P7.4.1: a role is one of К, Ч, Ш, Д (got %(got)s)"), got=repr(entry.role)))
    counts = Counter(entry.role for entry in protocol.seats if entry.role in ROLES)
    for role, quota in ROLE_COUNTS.items():
        got = counts.get(role, 0)
        if got > quota or (finished and got != quota):
            problems.append(error_t("seats", N_("%(clause)s: a game has %(quota)s × %(role)s (got %(got)s)"),
                                    clause=clause, quota=quota, role=role, got=got))
    return problems


def check_fouls(protocol: Protocol, ruleset: RuleSet) -> list[Problem]:
    """docs/rules.md I7: 0..4 fouls; the 4th foul removes the player (000 D6.5, 002 II.2.1, 003 l.123)."""
    clause = cite(ruleset, "000 D6.5", "002 II.2.1", "003 l.123")
    foul_removals = {r.seat for r in protocol.removals if r.reason == "fouls"}
    problems = []
    for entry in protocol.seats:
        if not 0 <= entry.fouls <= 4:
            problems.append(error_t(f"seats[{entry.seat}].fouls", N_("%(clause)s: fouls are 0..4 (got %(got)s)"),
                                    clause=clause, got=entry.fouls))
        elif entry.fouls == 4 and entry.seat not in foul_removals:
            problems.append(error_t(f"seats[{entry.seat}].fouls",
                                    N_("%(clause)s: the 4th foul removes the player; record the removal"),
                                    clause=clause))
    return problems


def check_removal_entries(protocol: Protocol, ruleset: RuleSet) -> list[Problem]:
    """Each removal: a seat, a known reason, an existing phase; a "fouls" removal needs 4 fouls."""
    problems = []
    for index, removal in enumerate(protocol.removals):
        where = f"removals[{index}]"
        if removal.seat not in SEATS:
            problems.append(error_t(where, N_("000 P7.5: a removal names a seat 1..10 (got %(got)s)"),
                                    got=removal.seat))
        if removal.reason not in REMOVAL_REASONS:
            problems.append(error_t(where, N_("000 D6.3: a removal is for fouls, disqualified or ppk (got %(got)s)"),
                                    got=repr(removal.reason)))
        phase = parse_phase(removal.at)
        if phase is None:
            problems.append(error_t(where, N_("docs/rules.md I4: a removal happens in a phase like D2 or N1 (got %(got)s)"),
                                    got=repr(removal.at)))
        elif not phase_exists(protocol, *phase):
            problems.append(error_t(where, N_("docs/rules.md A35: the protocol has no phase %(phase)s"), phase=removal.at))
        if removal.reason == "fouls":
            entry = protocol.seat(removal.seat)
            if entry is not None and entry.fouls != 4:
                clause = cite(ruleset, "000 D6.5", "002 II.2.1", "003 l.123")
                problems.append(error_t(where, N_("%(clause)s: a removal for fouls needs 4 fouls "
                                                  "(seat %(seat)s has %(fouls)s)"),
                                        clause=clause, seat=removal.seat, fouls=entry.fouls))
    return problems


def check_phase_count(protocol: Protocol) -> list[Problem]:
    """docs/rules.md I4: phases alternate D1, N1, D2, … so there are as many nights as days, or one fewer."""
    gap = len(protocol.days) - len(protocol.nights)
    if gap in (0, 1):
        return []
    return [error_t("nights", N_("docs/rules.md I4: phases alternate D1, N1, D2, …; %(days)s days cannot have "
                                 "%(nights)s nights"), days=len(protocol.days), nights=len(protocol.nights))]


# ---------------------------------------------------------------------------------------------------- replay


@dataclass
class GameEnd:
    phase: str  # "D3", "N2"
    result: str
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

    def _phase(self, kind: str, index: int, walk) -> None:
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
        self._check_nominations(day, index, where)
        # a malformed log may have more days than nights + 1 (reported by check_phase_count): do not crash
        previous_kill = self.protocol.nights[index - 1].kill if 1 <= index <= len(self.protocol.nights) else None
        self._removals(code, after_vote=False, farewell={previous_kill} if previous_kill else set())
        if self.end is not None:
            if day.votes is not None or day.revotes or day.lift is not None or day.out:
                self.problems.append(error_t(where, N_("%(clause)s: the game ended at %(code)s before the vote"),
                                             clause=self.end.clause, code=code))
            return
        alive_count = len(self.alive)
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

    def _check_nominations(self, day: Day, index: int, where: str) -> None:
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


class VoteCheck:
    """docs/rules.md I14–I21 for one day: which vote is allowed, and whether `out` is what the recorded votes imply."""

    def __init__(self, replay: Replay, day: Day, number: int, where: str, alive_count: int, *,
                 still_open: bool = False) -> None:
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
            seats = [t.seat for t in day.votes]
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
        rounds = [day.votes, *day.revotes]
        resolution = resolve_vote(rounds, day.lift, alive=self.alive_count, day=self.number,
                                  lift_bans=self.rs.lift_bans)
        here = self.where + (".votes" if resolution.round in (None, 0) else f".revotes[{(resolution.round or 1) - 1}]")
        if resolution.step == INVALID and resolution.fault != BAD_LIFT:
            self._round_fault(here, resolution, [t.seat for t in rounds[resolution.round or 0]])
            return None
        if resolution.by == UNIQUE_MAXIMUM:
            self._no_more_rounds(resolution.round, len(rounds), Text(N_("a unique maximum decides")),
                                 lift_follows=False)
            return list(resolution.out or ())
        if resolution.by == SECOND_TIE:
            self._no_more_rounds(resolution.round, len(rounds),
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
            tallies = [self.day.votes, *self.day.revotes][resolution.round or 0]
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


def check_best_move(protocol: Protocol, ruleset: RuleSet, replay: Replay) -> list[Problem]:
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
    victim = protocol.nights[0].kill
    at_table = replay.alive_before_first_kill or set(SEATS)
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
    killed = {night.kill for night in protocol.nights if night.kill is not None}
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
