"""The validator's checks of single entries, before the replay: seats, roles, fouls, removal entries, the phase
count (docs/rules.md I1–I4, I7)."""

from __future__ import annotations

from collections import Counter

from .facts import parse_phase, phase_exists
from .i18n import N_, ordinal
from .problems import Problem, error_t
from .protocol import REMOVAL_REASONS, ROLE_COUNTS, ROLES, SEATS, Protocol
from .ruleset import RuleSet, cite


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
    """docs/rules.md I7: 0..`foul_limit` fouls; the `foul_limit`-th foul (the 4th in every book) removes the player
    (000 D6.5, 002 II.2.1, 003 l.123)."""
    clause = cite(ruleset, "000 D6.5", "002 II.2.1", "003 l.123")
    limit = ruleset.foul_limit
    foul_removals = {r.seat for r in protocol.removals if r.reason == "fouls"}
    problems = []
    for entry in protocol.seats:
        if not 0 <= entry.fouls <= limit:
            problems.append(error_t(f"seats[{entry.seat}].fouls",
                                    N_("%(clause)s: fouls are 0..%(limit)s (got %(got)s)"),
                                    clause=clause, limit=limit, got=entry.fouls))
        elif entry.fouls == limit and entry.seat not in foul_removals:
            problems.append(error_t(f"seats[{entry.seat}].fouls",
                                    N_("%(clause)s: the %(nth)s foul removes the player; record the removal"),
                                    clause=clause, nth=ordinal(limit)))
    return problems


def check_removal_entries(protocol: Protocol, ruleset: RuleSet) -> list[Problem]:
    """Each removal: a seat, a known reason, an existing phase; a "fouls" removal needs `foul_limit` fouls."""
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
            if entry is not None and entry.fouls != ruleset.foul_limit:
                clause = cite(ruleset, "000 D6.5", "002 II.2.1", "003 l.123")
                problems.append(error_t(where, N_("%(clause)s: a removal for fouls needs %(limit)s fouls "
                                                  "(seat %(seat)s has %(fouls)s)"),
                                        clause=clause, limit=ruleset.foul_limit, seat=removal.seat,
                                        fouls=entry.fouls))
    return problems


def check_phase_count(protocol: Protocol) -> list[Problem]:
    """docs/rules.md I4: phases alternate D1, N1, D2, … so there are as many nights as days, or one fewer."""
    gap = len(protocol.days) - len(protocol.nights)
    if gap in (0, 1):
        return []
    return [error_t("nights", N_("docs/rules.md I4: phases alternate D1, N1, D2, …; %(days)s days cannot have "
                                 "%(nights)s nights"), days=len(protocol.days), nights=len(protocol.nights))]
