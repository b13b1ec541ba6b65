"""The checks of a summary protocol (docs/rules.md I46): a game known by its results only — the seats, the roles,
the fouls, the result, the best move, the extras; no days and no nights. What it gives beyond that per seat (the
first-night death, how and in which round the seat left) must be consistent; nothing missing is invented.
"""

from __future__ import annotations

from collections import Counter

from .facts import parse_phase
from .i18n import N_
from .problems import Problem, error_t
from .protocol import FOULS, KILLED, REMOVAL_REASONS, REMOVED, SEATS, Protocol
from .ruleset import RuleSet, cite


def check_summary(protocol: Protocol, ruleset: RuleSet) -> list[Problem]:
    """docs/rules.md I46: no phases; at most one first-night death, agreeing with its seat's departure; one kill a
    night; a seat out by removal has its removal; not every seat leaves; each removal names a seat and a reason."""
    problems: list[Problem] = []
    if protocol.days or protocol.nights:
        problems.append(error_t("days", N_("docs/rules.md I46: a summary protocol has no days and no nights")))
    marked = [s.seat for s in protocol.seats if s.first_night_killed]
    for seat in marked[1:]:
        problems.append(error_t(f"seats[{seat}].first_night_killed", N_(
            "docs/rules.md I46: one player at most dies on Night 1 (seat %(first)s is marked already)"),
            first=marked[0]))
    removed = {r.seat for r in protocol.removals}
    kills: Counter[int] = Counter()
    for entry in protocol.seats:
        out = entry.out
        if out is None:
            continue
        here = f"seats[{entry.seat}].out"
        if entry.first_night_killed and not (out.how == KILLED and out.round in (1, None)):
            problems.append(error_t(here, N_("docs/rules.md I46: the first-night death leaves killed in round 1 "
                                             "(got %(how)s in round %(round)s)"), how=out.how, round=out.round))
        if out.how == KILLED and out.round is not None:
            kills[out.round] += 1
            if kills[out.round] == 2:
                problems.append(error_t(here, N_("%(clause)s: one player at most is killed a night (round "
                                                 "%(round)s)"),
                                        clause=cite(ruleset, "000 4.5.4", "002 I.7.3.1", "003 l.29"), round=out.round))
        if out.how == REMOVED and entry.seat not in removed:
            problems.append(error_t(here, N_("docs/rules.md I46: a seat out by removal needs its entry in removals")))
    departed = sum(1 for s in protocol.seats if s.out is not None)
    if departed >= len(SEATS):
        problems.append(error_t("seats", N_("docs/rules.md I46: not every seat leaves the table (got %(got)s)"),
                                got=departed))
    return problems + _removals(protocol, ruleset)


def _removals(protocol: Protocol, ruleset: RuleSet) -> list[Problem]:
    """Each removal of a summary: a seat 1..10, a known reason, a phase like D2 when one is given (it may be
    unknown), the fouls that a removal for fouls needs."""
    problems = []
    for index, removal in enumerate(protocol.removals):
        where = f"removals[{index}]"
        if removal.seat not in SEATS:
            problems.append(error_t(where, N_("000 P7.5: a removal names a seat 1..10 (got %(got)s)"),
                                    got=removal.seat))
        if removal.reason not in REMOVAL_REASONS:
            problems.append(error_t(where, N_("000 D6.3: a removal is for fouls, disqualified or ppk (got %(got)s)"),
                                    got=repr(removal.reason)))
        if removal.at and parse_phase(removal.at) is None:
            problems.append(error_t(where, N_("docs/rules.md I4: a removal happens in a phase like D2 or N1 "
                                              "(got %(got)s)"), got=repr(removal.at)))
        entry = protocol.seat(removal.seat)
        if removal.reason == FOULS and entry is not None and entry.fouls != ruleset.foul_limit:
            problems.append(error_t(where, N_("%(clause)s: a removal for fouls needs %(limit)s fouls "
                                              "(seat %(seat)s has %(fouls)s)"),
                                    clause=cite(ruleset, "000 D6.5", "002 II.2.1", "003 l.123"),
                                    limit=ruleset.foul_limit, seat=removal.seat, fouls=entry.fouls))
    return problems
