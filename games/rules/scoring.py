"""Points for one game and the tournament pass for what depends on several games (Ci).

docs/rules.md D1–D7, I32–I40. Pure Python: `score_game(protocol, ruleset)` takes the
protocol dataclasses and returns plain dataclasses; `score_tournament(games, ruleset)` adds Ci (002 III.3).

Every `ScoreItem` carries the clause that produced it. An item that the rules void (a judge extra beaten by the
best move under 002 III.11, a judge extra in a draw under 000 T6.1.6) is kept with `effective=False` and the
voiding clause, so the protocol sheet can show what the judge wrote and why it does not count.

`extras_in_effect()` is the single place that decides which best move and which judge extras count; the
limits checker (`limits.py`) uses it too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from .facts import best_move_right, blacks_named, first_night_victim, killed_at_night, victim_is_red
from .i18n import N_, Text
from .protocol import (
    BLACK,
    BLACK_ROLES,
    DISQUALIFIED,
    DRAW,
    FOULS,
    PPK,
    RED,
    JudgeExtra,
    Protocol,
    team_of,
)
from .ruleset import CLAUSES, RuleSet

ZERO = Decimal("0")
CI_PLACES = Decimal("0.000001")  # stored nearly exact (docs/rules.md A7); pages show 2-3 decimals

# item kinds
MAIN = "main"
BEST_MOVE = "best_move"
JUDGE_EXTRA = "judge_extra"
CI = "ci"
REMOVAL_PENALTY = "removal_penalty"
PPK_PENALTY = "ppk"
WRONG_COLOUR = "wrong_colour"
ADJUSTMENT = "adjustment"
KINDS = (MAIN, BEST_MOVE, JUDGE_EXTRA, CI, REMOVAL_PENALTY, PPK_PENALTY, WRONG_COLOUR, ADJUSTMENT)
# 002 III.14 with docs/rules.md A16: these stay out of the "extras" tie-breaker unless `penalties_are_extras`.
PENALTY_KINDS = frozenset({REMOVAL_PENALTY, PPK_PENALTY})

AUTO, JUDGE = "auto", "judge"

# ---------------------------------------------------------------------------------------------- clauses
def clause(ruleset: RuleSet, key: str) -> str:
    """The clause for `key` in the rule book of `ruleset` (`ruleset.CLAUSES`; docs/rules.md, "Citations")."""
    table = CLAUSES[key]
    return table.get(ruleset.source) or table.get("*") or ruleset.source


def own_clause(ruleset: RuleSet, key: str) -> str | None:
    """The clause for `key` only when the rule book of `ruleset` has one of its own (no fallback)."""
    return CLAUSES[key].get(ruleset.source)


# ---------------------------------------------------------------------------------------------- results
# The engine's own notes on score items (stored as English text; the site translates them back by template).
NOTE_BLACKS_NAMED = N_("%(blacks)s blacks named")
NOTE_BLACKS_NAMED_VOID = N_("%(blacks)s blacks named; a judge extra at least as large counts instead (%(clause)s)")
NOTE_WRONG_COLOUR = N_("recorded %(seat)s as black; %(seat)s is red")
NOTE_TEMPLATES = (NOTE_BLACKS_NAMED, NOTE_BLACKS_NAMED_VOID, NOTE_WRONG_COLOUR)


@dataclass
class ScoreItem:
    kind: str  # one of KINDS
    points: Decimal
    clause: str
    effective: bool = True  # False: kept for the sheet, but voided (002 III.11, 000 T6.1.6)
    note: str = ""
    source: str = AUTO  # auto | judge


@dataclass
class SeatScore:
    seat: int
    player: str
    role: str | None
    items: list[ScoreItem]
    main: Decimal  # protocol column "баллы": win/loss/draw points only (docs/rules.md D7)
    extras: Decimal  # protocol column "доп. баллы": every other effective item, penalties included
    total: Decimal
    won: bool
    first_night_death: bool
    tiebreak_extras: Decimal  # the bucket of the "extras" tie-breaker (000 T6.2, 002 III.14.1; docs/rules.md A16)

    def items_of(self, kind: str) -> list[ScoreItem]:
        return [item for item in self.items if item.kind == kind]


@dataclass
class GameScore:
    seats: list[SeatScore]
    result: str | None

    def seat(self, number: int) -> SeatScore:
        for seat_score in self.seats:
            if seat_score.seat == number:
                return seat_score
        raise KeyError(number)

    def totals(self) -> dict[int, Decimal]:
        return {s.seat: s.total for s in self.seats}


def seat_score(
    *,
    seat: int,
    player: str,
    role: str | None,
    items: list[ScoreItem],
    won: bool,
    first_night_death: bool,
    ruleset: RuleSet,
) -> SeatScore:
    """Sum the items into the protocol columns (docs/rules.md I40) and the tie-break bucket (docs/rules.md A16)."""
    effective = [item for item in items if item.effective]
    main = sum((i.points for i in effective if i.kind == MAIN), ZERO)
    extras = sum((i.points for i in effective if i.kind != MAIN), ZERO)
    if ruleset.penalties_are_extras:
        tiebreak = extras
    else:  # 002 III.14: main = III.1, which includes the -0.5 / -0.7 (III.1.5–1.6)
        tiebreak = sum((i.points for i in effective if i.kind != MAIN and i.kind not in PENALTY_KINDS), ZERO)
    return SeatScore(
        seat=seat,
        player=player,
        role=role,
        items=items,
        main=main,
        extras=extras,
        total=main + extras,
        won=won,
        first_night_death=first_night_death,
        tiebreak_extras=tiebreak,
    )


# ---------------------------------------------------------------------------------------------- exclusivity
@dataclass(frozen=True)
class BestMoveAward:
    seat: int
    points: Decimal
    blacks: int
    clause: str


@dataclass(frozen=True)
class JudgeExtraState:
    index: int  # position in protocol.judge_extras
    extra: JudgeExtra
    effective: bool
    clause: str  # the clause that makes it count, or the one that voids it
    superseded: bool = False  # beaten by the best move (002 III.11)


@dataclass
class ExtrasInEffect:
    best_move: BestMoveAward | None
    best_move_effective: bool
    judge: list[JudgeExtraState] = field(default_factory=list)

    def effective_judge(self) -> list[JudgeExtraState]:
        return [state for state in self.judge if state.effective]


def best_move_award(protocol: Protocol, ruleset: RuleSet) -> BestMoveAward | None:
    """The best-move points due, or None (docs/rules.md D1–D3; 000 8.3, BM-4, S7.12; 002 I.7.8, III.2, III.13).

    A best move recorded without the right (docs/rules.md D3) is an error reported by the validator; it scores nothing.
    """
    if protocol.best_move is None:
        return None
    right, _ = best_move_right(protocol, ruleset)
    if not right:
        return None
    if protocol.result == DRAW and not ruleset.best_move_in_draw:
        return None
    # 000 BM-4 / 002 III.2: only a red victim (К or Ш) scores.
    if ruleset.best_move_red_only and not victim_is_red(protocol):
        return None
    blacks = blacks_named(protocol)
    points = ruleset.best_move_points.get(blacks, ZERO)
    if not points:
        return None
    cited = clause(ruleset, "best_move")
    if ruleset.best_move_points.get(3) == Decimal("0.3"):
        cited = own_clause(ruleset, "best_move_8_3") or cited  # a club that chose its book's 8.3 values (docs/rules.md A1)
    victim = first_night_victim(protocol)
    if victim is None:  # the right to a best move is the first-night victim's (checked above)
        return None
    return BestMoveAward(seat=victim, points=points, blacks=blacks, clause=cited)


def extras_in_effect(protocol: Protocol, ruleset: RuleSet) -> ExtrasInEffect:
    """Which best move and which judge extras count.

    * 000 T6.1.6: no judge extras in a draw (`judge_extras_in_draw`); they are void.
    * 002 III.11 (docs/rules.md A13, A14): on the best-move seat the larger of BM and the judge extra counts; a judge extra equal
      to or larger than the BM counts (and counts in the team limit), a smaller one is void.
    * 000 (docs/rules.md A2): additive — both count.
    """
    award = best_move_award(protocol, ruleset)
    bm_effective = award is not None
    states: list[JudgeExtraState] = []
    draw_void = protocol.result == DRAW and not ruleset.judge_extras_in_draw
    for index, extra in enumerate(protocol.judge_extras):
        if draw_void:
            states.append(JudgeExtraState(index, extra, False, clause(ruleset, "judge_draw")))
            continue
        if award is not None and ruleset.best_move_excludes_judge_extra and extra.seat == award.seat:
            if extra.points >= award.points:
                bm_effective = False
                states.append(JudgeExtraState(index, extra, True, clause(ruleset, "exclusive")))
            else:
                states.append(JudgeExtraState(index, extra, False, clause(ruleset, "exclusive"), superseded=True))
            continue
        states.append(JudgeExtraState(index, extra, True, clause(ruleset, "judge_extra")))
    return ExtrasInEffect(best_move=award, best_move_effective=bm_effective, judge=states)


# ---------------------------------------------------------------------------------------------- one game
def score_game(protocol: Protocol, ruleset: RuleSet, *, ci: Mapping[int, Decimal] | None = None) -> GameScore:
    """Score one game. `ci` maps seat → the Ci to credit in this game (from `ci_values`, the tournament pass)."""
    items: dict[int, list[ScoreItem]] = defaultdict(list)
    result = protocol.result
    won_seats = _main_points(protocol, ruleset, items)
    _extra_items(protocol, ruleset, items)

    # Ci (002 III.3), computed over the tournament by `ci_values`.
    for seat, value in (ci or {}).items():
        if value:
            items[seat].append(ScoreItem(CI, value, clause(ruleset, "ci")))

    _removal_items(protocol, ruleset, items)
    _colour_items(protocol, ruleset, items)

    # Judge-entered items with their own clause (III.5 mechanical, III.6 destructive, protest decisions).
    for adjustment in protocol.adjustments:
        items[adjustment.seat].append(
            ScoreItem(ADJUSTMENT, adjustment.points, adjustment.clause, note=adjustment.note, source=JUDGE)
        )

    victim = first_night_victim(protocol)
    seats = [
        seat_score(
            seat=entry.seat,
            player=entry.player,
            role=entry.role,
            items=items.get(entry.seat, []),
            won=entry.seat in won_seats,
            first_night_death=entry.seat == victim,
            ruleset=ruleset,
        )
        for entry in sorted(protocol.seats, key=lambda e: e.seat)
    ]
    return GameScore(seats=seats, result=result)


def _main_points(protocol: Protocol, ruleset: RuleSet, items: dict[int, list[ScoreItem]]) -> set[int]:
    """Main points (docs/rules.md D7; 000 8.2.1–8.2.3, 002 III.1.2–1.4): every seat of the winning team, eliminated and
    removed players included (docs/rules.md A6). Returns the seats that won."""
    result = protocol.result
    won_seats: set[int] = set()
    for entry in protocol.seats:
        team = team_of(entry.role)
        if result == DRAW:
            points = ruleset.draw_points
        elif result in (RED, BLACK) and team is not None:
            points = ruleset.win_points if team == result else ruleset.loss_points
        else:
            points = ZERO
        if result in (RED, BLACK) and team == result:
            won_seats.add(entry.seat)
        if points:
            items[entry.seat].append(ScoreItem(MAIN, points, clause(ruleset, "main")))
    return won_seats


def _extra_items(protocol: Protocol, ruleset: RuleSet, items: dict[int, list[ScoreItem]]) -> None:
    """Best move and judge extras, with exclusivity (docs/rules.md D1, D2, D5)."""
    in_effect = extras_in_effect(protocol, ruleset)
    award = in_effect.best_move
    if award is not None:
        if in_effect.best_move_effective:
            note = Text(NOTE_BLACKS_NAMED, blacks=award.blacks)
        else:
            note = Text(NOTE_BLACKS_NAMED_VOID, blacks=award.blacks, clause=clause(ruleset, 'exclusive'))
        items[award.seat].append(
            ScoreItem(BEST_MOVE, award.points, award.clause, effective=in_effect.best_move_effective, note=note)
        )
    for state in in_effect.judge:
        items[state.extra.seat].append(
            ScoreItem(
                JUDGE_EXTRA,
                state.extra.points,
                state.clause,
                effective=state.effective,
                note=state.extra.note,
                source=JUDGE,
            )
        )


def _removal_items(protocol: Protocol, ruleset: RuleSet, items: dict[int, list[ScoreItem]]) -> None:
    """Removals (docs/rules.md D6): -0.5 per 4th-foul / disqualification (000 8.2.4, 002 III.1.5), once per act
    (III.10); ППК: -0.7 instead (002 III.1.6), no number in 000 (D6.8)."""
    for removal in protocol.removals:
        if removal.reason in (FOULS, DISQUALIFIED):
            if ruleset.removal_penalty:
                items[removal.seat].append(
                    ScoreItem(REMOVAL_PENALTY, ruleset.removal_penalty, clause(ruleset, "removal_penalty"),
                              note=removal.note)
                )
        elif removal.reason == PPK and ruleset.ppk_penalty is not None:
            items[removal.seat].append(
                ScoreItem(PPK_PENALTY, ruleset.ppk_penalty, clause(ruleset, "ppk"), note=removal.note)
            )


def _colour_items(protocol: Protocol, ruleset: RuleSet, items: dict[int, list[ScoreItem]]) -> None:
    """Wrong recorded colour (002 III.5 l.311): -0.3 whatever the result; a black victim of a self-shot gets no
    mechanical points or penalties (l.309)."""
    if not (ruleset.colours_enabled and ruleset.wrong_colour_penalty):
        return
    killed = killed_at_night(protocol)
    for colour in protocol.colours:
        if protocol.team_of_seat(colour.target) != RED:
            continue
        if protocol.role_of(colour.by) in BLACK_ROLES and colour.by in killed:
            continue
        items[colour.by].append(
            ScoreItem(WRONG_COLOUR, ruleset.wrong_colour_penalty, clause(ruleset, "wrong_colour"),
                      note=Text(NOTE_WRONG_COLOUR, seat=colour.target))
        )


# ---------------------------------------------------------------------------------------------- tournament
def ci_ratio(killed: int, red_cards: int, ruleset: RuleSet) -> Decimal:
    """Ci = min(cap, K / R), rounded to 6 decimals half-up (002 III.3, docs/rules.md A7: "store exact; display to 2")."""
    if not red_cards:
        return ZERO
    ratio = Decimal(killed) / Decimal(red_cards)
    return min(ruleset.ci_cap, ratio).quantize(CI_PLACES, rounding=ROUND_HALF_UP)


def ci_counts(game: Protocol) -> dict[str, tuple[int, int]]:
    """One game's share of the Ci counts (002 III.3, docs/rules.md D4): player → (K, R), 1 or 0 each — R for a red
    card (К/Ш), K for a red card killed on Night 1. Players without a red card are absent, and so is every player
    of a summary protocol that does not tell the first-night death (docs/rules.md I46: skipped, not counted zero)."""
    if game.summary and not game.first_night_known():
        return {}
    victim = first_night_victim(game)
    return {entry.player: (int(entry.seat == victim), 1) for entry in game.seats if team_of(entry.role) == RED}


def ci_from_counts(game: Protocol, counts: Mapping[str, tuple[int, int]], ruleset: RuleSet) -> dict[int, Decimal]:
    """The Ci credited in one game, seat → value, given each player's (K, R) over the scope's counting games of the
    rule set (docs/rules.md D4; 002 III.3; docs/rules.md A7–A9): only in a game red lost (result black), to the red
    Night-1 victim, min(cap, K/R) — whether or not the best-move right existed. `counts` needs only that
    victim's player; a missing player counts (0, 0)."""
    if not ruleset.ci_enabled or game.result != BLACK:
        return {}
    victim = first_night_victim(game)
    victim_entry = game.seat(victim) if victim is not None else None
    if victim_entry is None or game.team_of_seat(victim_entry.seat) != RED:
        return {}
    killed, red_cards = counts.get(victim_entry.player, (0, 0))
    value = ci_ratio(killed, red_cards, ruleset)
    return {victim_entry.seat: value} if value else {}


def ci_values(games: Sequence[Protocol], ruleset: RuleSet) -> list[dict[int, Decimal]]:
    """Ci per game, seat → value (docs/rules.md D4; 002 III.3; docs/rules.md A7–A9).

    For each player over the whole list: K = games with a red card (К/Ш) killed on Night 1, R = games with a red card.
    Credited only in games that red lost (result black) to the red Night-1 victim — not in a win or a draw, and
    whether or not the best-move right existed. Recomputed from scratch on every call (docs/rules.md D4); a change
    of one game is scored by difference from the same counts (`ci_counts`, `ci_from_counts`;
    games.protocol.services.scoring).
    """
    if not ruleset.ci_enabled:
        return [{} for _ in games]
    counts: dict[str, tuple[int, int]] = {}
    for game in games:
        for player, (k, r) in ci_counts(game).items():
            old_k, old_r = counts.get(player, (0, 0))
            counts[player] = (old_k + k, old_r + r)
    return [ci_from_counts(game, counts, ruleset) for game in games]


def score_tournament(games: Sequence[Protocol], ruleset: RuleSet) -> list[GameScore]:
    """Score every game of a tournament (or rating season) with its Ci."""
    return [score_game(game, ruleset, ci=ci) for game, ci in zip(games, ci_values(games, ruleset), strict=True)]
