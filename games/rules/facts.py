"""Small facts derived from a protocol that both the validator and the scorer need."""

from __future__ import annotations

import re

from .i18n import N_, Text
from .protocol import BLACK_ROLES, KILLED, RED_ROLES, VOTED, Protocol
from .ruleset import (
    SPEECH_SEAT_OF_DAY,
    THIRD_FOUL_LOSE_CURRENT_OR_NEXT,
    THIRD_FOUL_LOSE_NEXT_SPEECH,
    THIRD_FOUL_NONE,
    RuleSet,
)

_PHASE = re.compile(r"^([DN])([1-9][0-9]*)$")


def parse_phase(code: str) -> tuple[str, int] | None:
    """'D2' -> ('D', 2); None when malformed."""
    match = _PHASE.match(code or "")
    return (match.group(1), int(match.group(2))) if match else None


def phase_exists(protocol: Protocol, kind: str, number: int) -> bool:
    return number <= (len(protocol.days) if kind == "D" else len(protocol.nights))


def phase_code(kind: str, index: int) -> str:
    """'D1', 'N2' … (days[0] is D1, nights[0] is N1)."""
    return f"{kind}{index}"


def first_night_victim(protocol: Protocol) -> int | None:
    """The seat killed on Night 1, the first shooting night (docs/rules.md I4); None on a miss or no night. A summary
    protocol's is the seat it marks `first_night_killed` (docs/rules.md I46)."""
    return protocol.first_night_victim()


def killed_at_night(protocol: Protocol) -> set[int]:
    """The seats killed at night: the nights' kills, or what a summary protocol gives (the first-night mark, the
    seats out by a kill)."""
    if protocol.summary:
        return {s.seat for s in protocol.seats if s.first_night_killed or (s.out is not None and s.out.how == KILLED)}
    return {night.kill for night in protocol.nights if night.kill is not None}


def day_one_departures(protocol: Protocol) -> list[int]:
    """Seats that left on Day 1 by vote or lift (000 S7.12 / 002 I.7.8 count these for the best-move right); in a
    summary protocol those it gives out by vote in round 1."""
    if protocol.summary:
        return [s.seat for s in protocol.seats if s.out is not None and s.out.how == VOTED and s.out.round == 1]
    return list(protocol.days[0].out) if protocol.days else []


def best_move_right(protocol: Protocol, ruleset: RuleSet) -> tuple[bool, str]:
    """Whether the Night-1 victim may make a best move, and the clause that decides (docs/rules.md D3)."""
    if not ruleset.best_move_enabled:
        return False, Text(N_("%(source)s: this rule set has no best move"), source=ruleset.source)
    if first_night_victim(protocol) is None:
        return False, Text(N_("000 8.3 / 002 I.7.8: only the player killed on Night 1 makes a best move"))
    if len(day_one_departures(protocol)) > ruleset.best_move_max_day1_out:
        return False, Text(N_("000 S7.12 / 002 I.7.8: no best move when two or more players left on Day 1"))
    return True, "000 8.3 / 002 I.7.8"


def blacks_named(protocol: Protocol) -> int:
    """How many distinct black seats (Ч/Д) the best move names."""
    named = {n for n in (protocol.best_move or []) if 1 <= n <= 10}
    return sum(1 for n in named if protocol.role_of(n) in BLACK_ROLES)


def victim_is_red(protocol: Protocol) -> bool:
    victim = first_night_victim(protocol)
    return victim is not None and protocol.role_of(victim) in RED_ROLES


# ---------------------------------------------------------------------------------------------- speaking order


def _phase_key(code: str) -> int:
    """Order of phases: D1 < N1 < D2 < N2 …"""
    kind, number = code[:1], int(code[1:] or 0)
    return 2 * number - 1 if kind == "D" else 2 * number


def alive_at_day_start(protocol: Protocol, day: int) -> list[int]:
    """Seats at the table when Day `day` opens: earlier days' vote-outs, earlier nights' kills and earlier
    removals are gone."""
    start = _phase_key(f"D{day}")
    gone: set[int] = set()
    for earlier in protocol.days[: day - 1]:
        gone |= set(earlier.out)
    for night in protocol.nights[: day - 1]:
        if night.kill is not None:
            gone.add(night.kill)
    gone |= {r.seat for r in protocol.removals if r.at[:1] in "DN" and _phase_key(r.at) < start}
    return [s.seat for s in sorted(protocol.seats, key=lambda s: s.seat) if s.seat not in gone]


def _at_or_after(seat: int, alive: list[int], *, strictly: bool = False) -> int | None:
    """The first living seat from `seat` on (after it when `strictly`), going round the table."""
    if not alive:
        return None
    if not strictly and seat in alive:
        return seat
    return next((s for s in alive if s > seat), alive[0])


def first_speaker(protocol: Protocol, ruleset: RuleSet, day: int) -> int | None:
    """Who opens Day `day`'s discussion (docs/rules.md I6; the rule set's `speech_start`).

    * `after_previous_first` (000 4.3.1, 001 r.15, 002 I.6.2): Day 1 seat 1; each later day the next living player
      after the previous day's first speaker.
    * `seat_of_day` (003 l.43–45): Day 1 seat 1, Day 2 seat 2, Day 3 seat 3 … ("обсуждение второго дня с игрока
      номер 2. На следующий день … с игрока номер 3 и т.д."); a seat no longer at the table passes the word to the
      next living seat. The two differ once a first speaker is skipped: seat 2 killed on Night 1 → Day 2 opens with
      3 in both, Day 3 with 4 under 000 but with 3 under 003.
    """
    if ruleset.speech_start == SPEECH_SEAT_OF_DAY:
        return _at_or_after((day - 1) % 10 + 1, alive_at_day_start(protocol, day))
    first: int | None = 1
    for index in range(2, day + 1):
        alive = alive_at_day_start(protocol, index)
        if not alive or first is None:
            return None
        first = _at_or_after(first, alive, strictly=True)
    return None if first is None else _at_or_after(first, alive_at_day_start(protocol, day))


def speaking_order(protocol: Protocol, ruleset: RuleSet, day: int) -> list[int]:
    """The living seats at the start of Day `day`, in speaking order (clockwise from the first speaker)."""
    alive = alive_at_day_start(protocol, day)
    first = first_speaker(protocol, ruleset, day)
    if first is None:
        return []
    return [s for s in alive if s >= first] + [s for s in alive if s < first]


# ---------------------------------------------------------------------------------------------- the 3rd foul

SPEECH_KEPT, SPEECH_LOST, SPEECH_SHORT = "kept", "lost", "short"


def third_foul_day(ruleset: RuleSet, *, phase: str, spoke_or_speaking: bool) -> int | None:
    """The day whose speech a 3rd foul costs, or None where it costs nothing (002 I.8.4).

    000 D6.4 "лишается права слова в свою ближайшую речь" and 003 l.73 "на текущий круг (если получает третье
    замечание до своего слова) или на следующий круг (если … во время своего слова)" both come to: the first speech
    of the player that starts after the foul — today's when he has not spoken yet, otherwise the next day's.
    A foul at Night n costs the speech of Day n + 1.
    """
    if ruleset.third_foul_effect == THIRD_FOUL_NONE or not phase:
        return None
    kind, number = phase[:1], int(phase[1:] or 0)
    if kind == "N":
        return number + 1
    return number + 1 if spoke_or_speaking else number


def third_foul_speech(ruleset: RuleSet, *, alive: int) -> tuple[str, str]:
    """What becomes of the speech a 3rd foul costs, with the clause: lost, short, or kept.

    With as many players at the table as one of `third_foul_short_at`, the speech is a short one instead: 000 S7.8
    "3 или 4 игрока … 30 секунд" (the FIIM rule); 003 l.73 has no such exception; 002 I.8.4: no effect at all.
    """
    if ruleset.third_foul_effect not in (THIRD_FOUL_LOSE_NEXT_SPEECH, THIRD_FOUL_LOSE_CURRENT_OR_NEXT):
        return SPEECH_KEPT, "002 I.8.4"
    if alive in ruleset.third_foul_short_at:
        return SPEECH_SHORT, "000 S7.8"
    return SPEECH_LOST, "000 D6.4" if ruleset.third_foul_effect == THIRD_FOUL_LOSE_NEXT_SPEECH else "003 l.73"
