"""Rule sets as data: every parameter in which the four rule books differ (docs/rules.md, "Parameters" and "Decisions").

A `RuleSet` is plain data. The engine reads its fields; it never asks which rule book it is. The four presets
below are the binding decisions of docs/rules.md; a club copies one and edits its copy (stored in the database as
`to_dict()` JSON, read back with `from_dict()`).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, fields, is_dataclass, replace
from decimal import Decimal
from typing import Any

from .i18n import N_, Text
from .protocol import BLACK, DON, SHERIFF

D = Decimal

# draw_rule values (docs/rules.md D9, A21)
DRAW_NONE = "none"  # 001: no rule, the game goes on
DRAW_THREE_NIGHTS_AND_DAYS = "three_nights_and_days"  # 000 S7.9
DRAW_THREE_NIGHTS = "three_nights"  # 002 I.8.5
THREE_MISSES_RED_WIN = "three_misses_red_win"  # 003 l.83

# third_foul_effect values
THIRD_FOUL_NONE = "none"  # 002 I.8.4
THIRD_FOUL_LOSE_NEXT_SPEECH = "lose_next_speech"  # 000 D6.4 (+ S7.4, S7.8)
THIRD_FOUL_LOSE_CURRENT_OR_NEXT = "lose_current_or_next_speech"  # 003 l.73

# speech_start values: who opens each day's discussion (docs/rules.md I6)
SPEECH_AFTER_PREVIOUS_FIRST = "after_previous_first"  # 000 4.3.1, 001 r.15, 002 I.6.2: the next living player
# after the previous day's first speaker
SPEECH_SEAT_OF_DAY = "seat_of_day"  # 003 l.43–45: Day d opens with seat d (Day 2 seat 2, Day 3 seat 3 …), or the
# next living seat after it

# vote_cancel_rule values (when a removal cancels a day's vote)
CANCEL_SAME_DAY_OR_NEXT = "same_day_or_next"  # 000 S7.1, S7.2
CANCEL_UNLESS_KILLED_OR_LEAVING = "unless_killed_or_leaving"  # 002 I.8.1, I.8.2
CANCEL_NOMINEE_ONLY = "nominee_only"  # 003 l.81

# tie-breaker names: the keys a rule set lists (`RuleSet.tiebreakers`); each is declared, with its label and the
# statistic it compares, in ratings/statistics/registry.py (TIEBREAKERS)
TB_TOTAL = "total"
TB_EXTRAS = "extras"
TB_WINS = "wins"
TB_WINS_DIFFICULT = "wins_difficult"
TB_EXTRAS_DIFFICULT = "extras_difficult"
TB_FIRST_NIGHT_DEATHS = "first_night_deaths"
TB_LOT = "lot"

# Every tie-breaker a rule set may list.
TIEBREAKER_KEYS: tuple[str, ...] = (
    TB_TOTAL, TB_EXTRAS, TB_WINS, TB_WINS_DIFFICULT, TB_EXTRAS_DIFFICULT, TB_FIRST_NIGHT_DEATHS, TB_LOT)


@dataclass(frozen=True)
class LiftBan:
    """A lift vote that is not held; night falls and nobody leaves.

    `alive`/`tied`/`day` None match anything; `tied_is_all` matches a tie of every player at the table.
    """

    clause: str
    alive: int | None = None
    tied: int | None = None
    day: int | None = None
    tied_is_all: bool = False
    # The tie itself already ends the voting (002 I.6.18.1 "если попил состоялся, в городе наступает ночь"): the
    # first tie may stand without a re-vote. A re-vote, when recorded, is accepted and the ban then stops the lift.
    first_tie: bool = False

    def matches(self, *, alive: int, tied: int, day: int) -> bool:
        if self.tied_is_all and tied != alive:
            return False
        if self.alive is not None and self.alive != alive:
            return False
        if self.tied is not None and self.tied != tied:
            return False
        if self.day is not None and self.day != day:
            return False
        return True


# ConditionalItem.holds_if values: the results under which a judge-entered item applies
ITEM_IF_TEAM_LOST_OR_DREW = "team_lost_or_drew"  # 002 III.6 l.345: the −0.3 list
ITEM_IF_RED_LOST = "red_lost"  # 002 III.5 l.317: the mechanical ±0.3 of the critical round


@dataclass(frozen=True)
class ConditionalItem:
    """A kind of judge-entered item (an adjustment) that applies only under some results.

    Adjustments carry free clause text ("002 III.6 / -0.3 #2"); `pattern` is the regular expression, searched in
    that text, that recognises the kind. `holds_if` names the results under which the item applies (ITEM_IF_*),
    `clause` the rule-book clause that says so. `checked`: the validator refuses such an item when the recorded
    result breaks the condition. `lapses`: when a protest decision reverses the result and the new one breaks
    the condition, the item is removed and the removal recorded in the decision (docs/rules.md A27).
    """

    pattern: str
    holds_if: str
    clause: str
    checked: bool = False
    lapses: bool = True

    def matches(self, clause_text: str) -> bool:
        return re.search(self.pattern, clause_text) is not None

    def holds(self, result: str | None, team: str | None) -> bool:
        """Whether the item applies to a player of `team` ("red"/"black"/None) when the game's result is `result`."""
        if self.holds_if == ITEM_IF_TEAM_LOST_OR_DREW:
            return team is None or team != result
        if self.holds_if == ITEM_IF_RED_LOST:
            return result == BLACK
        return True


# The largest `foul_limit` a club's rule set may have (every book says 4; the seat's fouls column is checked
# against it in the database, `games.models.Seat`).
FOUL_LIMIT_MAX = 9


def cite(ruleset: RuleSet, *refs: str) -> str:
    """The reference of the rule set's own book among `refs` ("000 4.4.12", "002 I.6.15"), else the first."""
    for ref in refs:
        if ref.split(" ", 1)[0] == ruleset.source:
            return ref
    return refs[0]


@dataclass(frozen=True)
class RuleSet:
    slug: str
    name: str
    source: str  # the rule book file / clause prefix, e.g. "002"

    # -- main points (000 8.2.1–8.2.3; 002 III.1.2–1.4; docs/rules.md D7, D11)
    win_points: Decimal = D("1")
    loss_points: Decimal = D("0")
    draw_points: Decimal = D("0")

    # -- best move (docs/rules.md D1–D3)
    best_move_enabled: bool = True
    best_move_points: dict[int, Decimal] = field(default_factory=dict)  # blacks named -> points
    best_move_red_only: bool = True  # only a К/Ш victim scores
    best_move_excludes_judge_extra: bool = False  # 002 III.11: the larger counts
    best_move_in_draw: bool = True  # docs/rules.md A3, 002 III.13
    best_move_max_day1_out: int = 1  # 000 S7.12, 002 I.7.8: at most one player out on Day 1

    # -- Ci compensation (002 III.3; docs/rules.md D4)
    ci_enabled: bool = False
    ci_cap: Decimal = D("0.4")

    # -- judge extras (docs/rules.md D5)
    judge_values: tuple[Decimal, ...] | None = None  # allowed values; None = any in [judge_min, judge_max]
    judge_min: Decimal = D("0")
    judge_max: Decimal = D("0.7")
    judge_max_recipients: int | None = None  # 000 T6.1.1
    judge_total_cap: Decimal | None = None  # 000 T6.1.2 (both teams together)
    judge_winner_cap: Decimal | None = None  # 000 T6.1.3
    judge_loser_cap: Decimal | None = None  # 000 T6.1.4
    judge_approval_from: Decimal | None = None  # 000 T6.1.3: 0.6 and 0.7 need the head judge
    judge_team_cap: dict[str, Decimal] | None = None  # 002 III.4: {"red": 1.2, "black": 1.0}
    judge_top_exclusive: Decimal | None = None  # 002 III.4.2: a 0.7 excludes every teammate
    judge_second_value: Decimal | None = None  # 002 III.4.3: with a 0.6 …
    judge_second_partner_max: Decimal | None = None  # … at most one teammate, at 0.2–0.3
    judge_extras_in_draw: bool = True  # 000 T6.1.6: none in a draw; 002 III.13: allowed

    # -- penalties (docs/rules.md D6)
    removal_penalty: Decimal = D("-0.5")  # 4th foul or disqualification (000 8.2.4, 002 III.1.5)
    ppk_penalty: Decimal | None = None  # 002 III.1.6: -0.7 instead of -0.5; None: no number (000 D6.8)
    penalties_are_extras: bool = True  # docs/rules.md A16: 000 counts the -0.5 as extra; 002 III.14 keeps it in main
    colours_enabled: bool = False  # "цвет под запись" exists (002 III.5)
    wrong_colour_penalty: Decimal | None = None  # 002 III.5 l.311: -0.3 whatever the result
    destructive_catalogue: str = ""  # 002 III.6: clause prefix of the judge's −0.3/−0.5 list; "" = none

    # -- game flow
    speech_start: str = SPEECH_AFTER_PREVIOUS_FIRST
    third_foul_effect: str = THIRD_FOUL_LOSE_NEXT_SPEECH
    # the numbers of players at the table at which the speech a 3rd foul costs is a short one instead (000 S7.8)
    third_foul_short_at: tuple[int, ...] = (3, 4)
    nomination_withdrawal: bool = False  # 001 r.20–22, 003 l.49
    lift_bans: tuple[LiftBan, ...] = ()
    draw_rule: str = DRAW_NONE
    vote_cancel_rule: str = CANCEL_SAME_DAY_OR_NEXT
    day1_outcome_warn_only: bool = False  # docs/rules.md A18: 002 I.6.18.5–18.6 are unintelligible → warn only
    # a living player who raises no hand counts for the last candidate (000 4.4.12, 001 r.27, 002 I.6.15, 003 l.58):
    # every round's votes add up to the living players; False (a club's copy): he abstains, the votes add up to at
    # most that many
    non_voters_to_last: bool = True
    # -- the judge's clock (000 4.3.1, 4.4.14, S7.8; 001 r.14, r.31; 002 I.6.8, I.6.18; 003 l.16, l.60)
    speech_seconds: int = 60  # a day speech
    short_speech_seconds: int = 30  # a tie speech, a 3rd-foul speech with 3–4 players left (000 S7.8)
    # -- the night as it is played: the shot, then the Don's check, then the Sheriff's (000 4.5.4–4.5.8,
    # 002 I.7.3–7.6, 003 l.32–37)
    night_order: tuple[str, ...] = ("kill", "don_check", "sheriff_check")
    # the foul that removes the player (000 D6.5, 002 II.2.1, 003 l.123), 2..FOUL_LIMIT_MAX
    foul_limit: int = 4

    # -- standings (docs/rules.md D8)
    tiebreakers: tuple[str, ...] = (TB_EXTRAS, TB_WINS, TB_WINS_DIFFICULT, TB_FIRST_NIGHT_DEATHS, TB_LOT)
    difficult_roles: tuple[str, ...] = (DON, SHERIFF)

    # -- protests (docs/rules.md D12)
    protest_window_minutes: int = 10
    extras_protest_minus_only: bool = False  # 002 III.1.7
    back_side_detail: str = "detailed"  # 000 P7.9 detailed; 002 III.1.8 grades only
    # 002 III.16, II.3.7, App. l.544–556: reversing the result, a replay, adding or removing a penalty need the
    # agreement of the СК duty representative, whose name the decision records
    protest_needs_sk_agreement: bool = False
    team_vote_annulment: bool = False  # 003 l.127: the protesting team and one opponent vote the game annulled
    # judge-entered items that hold only under some results (002 III.6 l.345, III.5 l.317; docs/rules.md A27)
    conditional_items: tuple[ConditionalItem, ...] = ()

    @property
    def speech_foul(self) -> int:
        """The foul before the removing one, the one that costs a speech where the book says so: the 3rd with
        `foul_limit` 4 (000 D6.4, 003 l.73; 002 I.8.4: no effect)."""
        return self.foul_limit - 1

    def conditional_items_for(self, clause_text: str) -> list[ConditionalItem]:
        """The conditional kinds a judge-entered item with this clause text belongs to."""
        return [kind for kind in self.conditional_items if kind.matches(clause_text)]

    # ------------------------------------------------------------------ conversion
    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict (Decimals as strings) for storing a rule-set version in the database."""
        stored: dict[str, Any] = _jsonable(asdict(self))
        return stored

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        # A parameter missing from stored data takes the value of the preset it was copied from.
        base = PRESETS.get(values.get("slug", "")) or PRESETS_BY_SOURCE.get(values.get("source", ""), PRESETS["xcraft"])
        kwargs = {}
        for f in fields(cls):
            if f.name not in values:
                continue
            kwargs[f.name] = _revive(f.name, values[f.name])
        return replace(base, **kwargs)


_DECIMAL_FIELDS = {
    "win_points", "loss_points", "draw_points", "ci_cap", "judge_min", "judge_max", "judge_total_cap",
    "judge_winner_cap", "judge_loser_cap", "judge_approval_from", "judge_top_exclusive", "judge_second_value",
    "judge_second_partner_max", "removal_penalty", "ppk_penalty", "wrong_colour_penalty",
}


def _jsonable(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return _jsonable(asdict(value))
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def _revive(name: str, value: Any) -> Any:
    if value is None:
        return None
    if name in _DECIMAL_FIELDS:
        return Decimal(str(value))
    if name == "best_move_points":
        return {int(k): Decimal(str(v)) for k, v in value.items()}
    if name == "judge_team_cap":
        return {str(k): Decimal(str(v)) for k, v in value.items()}
    if name == "judge_values":
        return tuple(Decimal(str(v)) for v in value)
    if name == "lift_bans":
        return tuple(LiftBan(**ban) for ban in value)
    if name == "conditional_items":
        return tuple(ConditionalItem(**item) for item in value)
    if name in {"tiebreakers", "difficult_roles", "night_order", "third_foul_short_at"}:
        return tuple(value)
    return value


_CML_JUDGE_VALUES = tuple(D(v) for v in ("0.2", "0.3", "0.4", "0.5", "0.6", "0.7"))

XCRAFT = RuleSet(
    slug="xcraft",
    name="X-Craft 2.0 (ФИИМ)",
    source="000",
    best_move_points={2: D("0.25"), 3: D("0.4")},  # docs/rules.md D1, A1: BM-4
    best_move_excludes_judge_extra=False,  # docs/rules.md A2: additive, outside the judge cap
    best_move_in_draw=True,  # docs/rules.md A3
    judge_min=D("0"),
    judge_max=D("0.7"),
    judge_max_recipients=3,  # T6.1.1
    judge_total_cap=D("1.0"),  # T6.1.2
    judge_winner_cap=D("0.7"),  # T6.1.3
    judge_loser_cap=D("0.4"),  # T6.1.4
    judge_approval_from=D("0.6"),  # T6.1.3
    judge_extras_in_draw=False,  # T6.1.6
    removal_penalty=D("-0.5"),  # 8.2.4
    ppk_penalty=None,  # D6.8: team defeat, no number
    penalties_are_extras=True,  # 8.2.4
    third_foul_effect=THIRD_FOUL_LOSE_NEXT_SPEECH,  # D6.4
    third_foul_short_at=(3, 4),  # S7.8
    nomination_withdrawal=False,
    lift_bans=(
        LiftBan(clause="000 S7.10", tied_is_all=True),
        LiftBan(clause="000 S7.6", alive=4, tied=2),
        LiftBan(clause="000 S7.5", alive=3, tied=3),
    ),
    draw_rule=DRAW_THREE_NIGHTS_AND_DAYS,  # S7.9
    vote_cancel_rule=CANCEL_SAME_DAY_OR_NEXT,  # S7.1, S7.2
    tiebreakers=(TB_EXTRAS, TB_WINS, TB_WINS_DIFFICULT, TB_FIRST_NIGHT_DEATHS, TB_LOT),  # T6.2–6.2.4
    difficult_roles=(DON, SHERIFF),  # T6.2.2: wins as Don or Sheriff
    back_side_detail="detailed",  # P7.9
)

CML = RuleSet(
    slug="cml",
    name="CML",
    source="002",
    best_move_points={2: D("0.3"), 3: D("0.5")},  # III.2
    best_move_excludes_judge_extra=True,  # III.11
    best_move_in_draw=True,  # III.13
    ci_enabled=True,  # III.3
    ci_cap=D("0.4"),
    judge_values=_CML_JUDGE_VALUES,  # III.4, docs/rules.md A12
    judge_min=D("0.2"),
    judge_max=D("0.7"),
    judge_team_cap={"red": D("1.2"), "black": D("1.0")},  # III.4
    judge_top_exclusive=D("0.7"),  # III.4.2
    judge_second_value=D("0.6"),  # III.4.3
    judge_second_partner_max=D("0.3"),  # III.4.3
    judge_extras_in_draw=True,  # III.13
    removal_penalty=D("-0.5"),  # III.1.5
    ppk_penalty=D("-0.7"),  # III.1.6, III.9
    penalties_are_extras=False,  # III.14 (docs/rules.md A16): main = III.1 including -0.5/-0.7
    colours_enabled=True,  # III.5
    wrong_colour_penalty=D("-0.3"),  # III.5 l.311
    destructive_catalogue="002 III.6",  # III.6 −0.3 / −0.5 lists
    third_foul_effect=THIRD_FOUL_NONE,  # I.8.4
    third_foul_short_at=(),  # I.8.4: no speech is lost
    nomination_withdrawal=False,
    lift_bans=(
        LiftBan(clause="002 I.8.6", tied_is_all=True),
        LiftBan(clause="002 I.6.18.1", day=1, tied=5, first_tie=True),
        LiftBan(clause="002 I.6.18.1", day=1, tied=10, first_tie=True),
        LiftBan(clause="002 I.8.7", alive=9, tied=3),
    ),
    draw_rule=DRAW_THREE_NIGHTS,  # I.8.5
    vote_cancel_rule=CANCEL_UNLESS_KILLED_OR_LEAVING,  # I.8.1, I.8.2
    day1_outcome_warn_only=True,  # docs/rules.md A18
    tiebreakers=(
        TB_EXTRAS, TB_WINS, TB_WINS_DIFFICULT, TB_EXTRAS_DIFFICULT, TB_FIRST_NIGHT_DEATHS, TB_LOT,
    ),  # III.14.1–14.6
    difficult_roles=(DON, SHERIFF),  # docs/rules.md A17
    extras_protest_minus_only=True,  # III.1.7
    back_side_detail="grades_only",  # III.1.8
    protest_needs_sk_agreement=True,  # III.16, II.3.7, App. l.544–556
    conditional_items=(
        # the −0.3 list, only when the player's team lost or drew
        ConditionalItem(pattern=r"III\.6\s*/\s*-0\.3", holds_if=ITEM_IF_TEAM_LOST_OR_DREW, clause="002 III.6 l.345",
                        checked=True),
        # the mechanical ±0.3 of the case "red lost"
        ConditionalItem(pattern=r"III\.5\s*l\.317", holds_if=ITEM_IF_RED_LOST, clause="002 III.5 l.317"),
    ),
)

# docs/rules.md D11: rule books without scoring (kamchatka, moscow) score win 1 / loss 0 / draw 0, removal -0.5,
# no best move, judge extras 0–0.7 per player with no team cap.
KAMCHATKA = RuleSet(
    slug="kamchatka",
    name="Камчатка",
    source="001",
    best_move_enabled=False,
    best_move_points={},
    judge_min=D("0"),
    judge_max=D("0.7"),
    removal_penalty=D("-0.5"),
    third_foul_effect=THIRD_FOUL_LOSE_NEXT_SPEECH,  # lost in 001; the FIIM default
    third_foul_short_at=(3, 4),  # the FIIM default (000 S7.8)
    nomination_withdrawal=True,  # r.20–22
    lift_bans=(LiftBan(clause=Text(N_("001 (FIIM default): no lift of every player at the table")),
                       tied_is_all=True),),
    draw_rule=DRAW_NONE,  # docs/rules.md D9: no rule, the game goes on
    vote_cancel_rule=CANCEL_SAME_DAY_OR_NEXT,
)

MOSCOW = RuleSet(
    slug="moscow",
    name="Классическая московская",
    source="003",
    best_move_enabled=False,
    best_move_points={},
    judge_min=D("0"),
    judge_max=D("0.7"),
    removal_penalty=D("-0.5"),
    speech_start=SPEECH_SEAT_OF_DAY,  # l.43–45
    third_foul_effect=THIRD_FOUL_LOSE_CURRENT_OR_NEXT,  # l.73
    third_foul_short_at=(),  # l.73: lost whatever the number at the table
    nomination_withdrawal=True,  # l.49
    lift_bans=(LiftBan(clause=Text(N_("003 (FIIM default): no lift of every player at the table")),
                       tied_is_all=True),),
    # l.79: removing 2 at 4 is allowed (docs/rules.md D10) — no alive=4 ban.
    draw_rule=THREE_MISSES_RED_WIN,  # l.83
    vote_cancel_rule=CANCEL_NOMINEE_ONLY,  # l.81
    team_vote_annulment=True,  # l.127
)

PRESETS: dict[str, RuleSet] = {rs.slug: rs for rs in (XCRAFT, KAMCHATKA, CML, MOSCOW)}
PRESETS_BY_SOURCE: dict[str, RuleSet] = {rs.source: rs for rs in PRESETS.values()}

# Which clause of which rule book an item or a check comes from, by `RuleSet.source`. "*" is the fallback for the
# rule books without scoring (001, 003), whose presets follow docs/rules.md D11.
_D11 = "docs/rules.md D11"
CLAUSES: dict[str, dict[str, str]] = {
    "main": {"000": "000 8.2", "002": "002 III.1.2", "*": _D11},
    "best_move": {"000": "000 BM-4", "002": "002 III.2", "*": _D11},
    "best_move_8_3": {"000": "000 8.3"},
    "best_move_right": {"000": "000 S7.12", "002": "002 I.7.8", "*": "000 S7.12 / 002 I.7.8"},
    "exclusive": {"002": "002 III.11", "*": "002 III.11"},
    "ci": {"002": "002 III.3", "*": "002 III.3"},
    "judge_extra": {"000": "000 T6.1", "002": "002 III.4", "*": _D11},
    "judge_draw": {"000": "000 T6.1.6", "002": "002 III.13", "*": "000 T6.1.6"},
    "judge_values": {"000": "000 T6.1.3", "002": "002 III.4", "*": _D11},
    "judge_recipients": {"000": "000 T6.1.1", "*": "000 T6.1.1"},
    "judge_total": {"000": "000 T6.1.2", "*": "000 T6.1.2"},
    "judge_winner": {"000": "000 T6.1.3", "*": "000 T6.1.3"},
    "judge_loser": {"000": "000 T6.1.4", "*": "000 T6.1.4"},
    "judge_approval": {"000": "000 T6.1.3", "*": "000 T6.1.3"},
    "judge_team_cap": {"002": "002 III.4", "*": "002 III.4"},
    "judge_top": {"002": "002 III.4.2", "*": "002 III.4.2"},
    "judge_second": {"002": "002 III.4.3", "*": "002 III.4.3"},
    "removal_penalty": {"000": "000 8.2.4", "002": "002 III.1.5", "*": _D11},
    "ppk": {"002": "002 III.1.6", "*": "002 III.1.6"},
    "one_penalty": {"002": "002 III.10", "*": "002 III.10"},
    "wrong_colour": {"002": "002 III.5 l.311", "*": "002 III.5 l.311"},
    "back_side": {"000": "000 P7.9", "*": "000 P7.9"},
    # a protest decision cancels a computed penalty with a compensating item
    "penalty_removed": {"002": "002 App. l.553", "*": "protest decision"},
}


def get_preset(slug: str) -> RuleSet:
    try:
        return PRESETS[slug]
    except KeyError as exc:
        raise KeyError(f"unknown rule set {slug!r}; known: {', '.join(PRESETS)}") from exc
