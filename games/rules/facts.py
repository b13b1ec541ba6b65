"""Small facts derived from a protocol that both the validator and the scorer need."""

from __future__ import annotations

from .protocol import BLACK_ROLES, RED_ROLES, Protocol
from .ruleset import RuleSet


def phase_code(kind: str, index: int) -> str:
    """'D1', 'N2' … (days[0] is D1, nights[0] is N1)."""
    return f"{kind}{index}"


def first_night_victim(protocol: Protocol) -> int | None:
    """The seat killed on Night 1, the first shooting night (RULES.md §1.2); None on a miss or no night."""
    return protocol.nights[0].kill if protocol.nights else None


def day_one_departures(protocol: Protocol) -> list[int]:
    """Seats that left on Day 1 by vote or lift (000 S7.12 / 002 I.7.8 count these for the best-move right)."""
    return list(protocol.days[0].out) if protocol.days else []


def best_move_right(protocol: Protocol, ruleset: RuleSet) -> tuple[bool, str]:
    """Whether the Night-1 victim may make a best move, and the clause that decides (RULES.md decision 3)."""
    if not ruleset.best_move_enabled:
        return False, f"{ruleset.source}: this rule set has no best move"
    if first_night_victim(protocol) is None:
        return False, "000 8.3 / 002 I.7.8: only the player killed on Night 1 makes a best move"
    if len(day_one_departures(protocol)) > ruleset.best_move_max_day1_out:
        return False, "000 S7.12 / 002 I.7.8: no best move when two or more players left on Day 1"
    return True, "000 8.3 / 002 I.7.8"


def blacks_named(protocol: Protocol) -> int:
    """How many distinct black seats (Ч/Д) the best move names."""
    named = {n for n in (protocol.best_move or []) if 1 <= n <= 10}
    return sum(1 for n in named if protocol.role_of(n) in BLACK_ROLES)


def victim_is_red(protocol: Protocol) -> bool:
    victim = first_night_victim(protocol)
    return victim is not None and protocol.role_of(victim) in RED_ROLES
