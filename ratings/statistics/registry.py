"""The statistics registry: each statistic of a player is declared here once (Tabbycat's `standings/metrics.py`).

A `Fact` is what one game says of one seat, stored as a `PlayerGame` column; a `Statistic` is a `PlayerStats`
column aggregated over a scope's facts (a count of the games meeting a condition, or a sum of a fact over them),
with its label and how it shows. Everything else reads these lists:

* the model columns (`contribute_facts` / `contribute_statistics` in `ratings.models`; migrations stay ordinary
  Django migrations, made by `makemigrations` from the fields generated here);
* the facts of a game (`ratings.standings.facts.game_rows` calls each fact's `compute`);
* the incremental update (`ratings.standings.table.add_row`: `Statistic.share`) and the full recompute
  (`ratings.standings.table.stats_values`: `Statistic.aggregate`) — the two agree by construction, and the property
  test `ratings/tests/test_aggregates_property.py` checks that they do;
* the player's card (`card_figures`, the statistics with a `display`) and the API's player statistics;
* the tie-breakers (`TIEBREAKERS`: the statistic each compares, and its label) the ranking sorts by
  (`ratings.standings.ranking`), the standings show and the rule-set page names.

Adding a statistic is one entry here and one migration; the stored history gets its values by itself
(`ratings.statistics.backfill`, on migrate).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import models
from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from games.rules.protocol import BLACK_ROLES, RED_ROLES, SHERIFF
from games.rules.ruleset import (
    TB_EXTRAS,
    TB_EXTRAS_DIFFICULT,
    TB_FIRST_NIGHT_DEATHS,
    TB_LOT,
    TB_TOTAL,
    TB_WINS,
    TB_WINS_DIFFICULT,
    TIEBREAKER_KEYS,
)

POINTS: dict[str, Any] = {"max_digits": 14, "decimal_places": 6}
ZERO = Decimal(0)
NOT_NULL = object()  # a condition's value: the fact is present (not None)
ROLE_FIELDS = {"К": "citizen", "Ч": "mafia", "Ш": "sheriff", "Д": "don"}
DON = "Д"


@dataclass(frozen=True)
class GameFacts:
    """What a game's protocol says, as `ratings.standings.facts.build_facts` reads it (plain values, no models)."""

    roles: dict[int, str]  # seat number → role letter ("" unknown)
    best_move: list[int] | None  # the seats the Night-1 victim named
    first_victim: int | None  # the seat killed on Night 1
    nights: list[tuple[int, int | None, int | None, int | None]]  # (index, kill, don check, sheriff check)
    nominations: list[dict]  # every day's nominations in order: {"by": seat, "nominee": seat, "withdrawn": bool}
    # every recorded vote (docs/rules.md I47) as (voter seat, candidate seat): the main rounds' and re-votes' raised
    # hands; empty when the protocol records counts only (or is a summary): the voters' statistics count nothing
    hands: list[tuple[int, int]] = field(default_factory=list)


@dataclass(frozen=True)
class SeatFacts:
    """One seat of the game: the seat's own stored columns."""

    number: int
    role: str
    won: bool
    main: Decimal
    extras: Decimal
    total: Decimal
    tiebreak_extras: Decimal
    fouls: int
    first_night_death: bool
    difficult: bool  # the role is a "difficult card" of the game's rule set (docs/rules.md A17)


@dataclass(frozen=True)
class Fact:
    """A `PlayerGame` column: what one game contributes for one seat."""

    key: str
    field: Callable[[], models.Field]
    compute: Callable[[GameFacts, SeatFacts], Any]


@dataclass(frozen=True)
class Statistic:
    """A `PlayerStats` column: `how` = "count" (games meeting `when`) or "sum" (of `fact` over them).

    `when` is a tuple of (fact, value) pairs, all of which must hold (`NOT_NULL`: the fact is present). `display`
    is how the card and the API show it ("integer"; "points"; "percent": the share of the player's games), None
    when they show it otherwise (the standings' columns, the role bars) or not at all.

    A statistic with `compute` (game, seat → a count) brings its own fact: a `PlayerGame` column of the same key,
    summed over the scope — one entry declares both.
    """

    key: str
    label: Any
    how: str = "count"
    fact: str | None = None
    when: tuple[tuple[str, Any], ...] = ()
    decimal: bool = False
    display: str | None = None
    testid: str = field(default="", compare=False)
    compute: Callable[[GameFacts, SeatFacts], int] | None = field(default=None, compare=False)

    def __post_init__(self):
        if self.compute is not None:  # its own fact, summed
            object.__setattr__(self, "how", "sum")
            object.__setattr__(self, "fact", self.key)

    def field(self) -> models.Field:
        return models.DecimalField(**POINTS) if self.decimal else models.PositiveIntegerField(default=0)

    def zero(self):
        return ZERO if self.decimal else 0

    def condition(self) -> Q:
        return Q(**{(f"{f}__isnull" if v is NOT_NULL else f): (False if v is NOT_NULL else v) for f, v in self.when})

    def holds(self, row: dict) -> bool:
        return all((row[f] is not None) if v is NOT_NULL else row[f] == v for f, v in self.when)

    def aggregate(self):
        """The SQL aggregate over a scope's PlayerGame rows (the full recompute)."""
        filter_ = self.condition() if self.when else None
        if self.how == "count":
            return Count("id", filter=filter_)
        out = {"output_field": models.DecimalField(**POINTS)} if self.decimal else {}
        return Coalesce(Sum(self.fact, filter=filter_), ZERO if self.decimal else 0, **out)

    def share(self, row: dict):
        """One PlayerGame row's share of the statistic (the incremental update adds or subtracts it)."""
        if not self.holds(row):
            return self.zero()
        return 1 if self.how == "count" else row[self.fact]


# ---------------------------------------------------------------------------------------------- facts
def _seat(name: str) -> Callable[[GameFacts, SeatFacts], Any]:
    return lambda game, seat: getattr(seat, name)  # noqa: ARG005 — game: every fact is called as fact(game, seat)


def _best_move_blacks(game: GameFacts, seat: SeatFacts) -> int | None:
    # 000 S7.12 / 002 III.2: the best move of the Night-1 victim; "accuracy" = the blacks it names.
    if game.best_move is None or not game.first_victim or seat.number != game.first_victim:
        return None
    return sum(1 for n in set(game.best_move) if game.roles.get(n) in BLACK_ROLES)


def _sheriff_black_finds(game: GameFacts, seat: SeatFacts) -> int:
    if seat.role != SHERIFF:
        return 0
    return sum(1 for _, _, _, check in game.nights if check and game.roles.get(check) in BLACK_ROLES)


def _don_sheriff_finds(game: GameFacts, seat: SeatFacts) -> int:
    if seat.role != DON:
        return 0
    return sum(1 for _, _, check, _ in game.nights if check and game.roles.get(check) == SHERIFF)


def _black_nominations(game: GameFacts, seat: SeatFacts) -> int:
    # nominations this seat made of a black seat (Ч or Д); a withdrawn nomination (001 r.20–22) is not counted
    return sum(1 for n in game.nominations if n.get("by") == seat.number and not n.get("withdrawn")
               and game.roles.get(n.get("nominee", 0), "") in BLACK_ROLES)


def _hands_of(game: GameFacts, seat: SeatFacts) -> list[str]:
    """The roles of the candidates this seat raised its hand against (recorded votes only)."""
    return [game.roles.get(candidate, "") for voter, candidate in game.hands if voter == seat.number]


def _votes_recorded(game: GameFacts, seat: SeatFacts) -> int:
    return len(_hands_of(game, seat))


def _red_votes_on_black(game: GameFacts, seat: SeatFacts) -> int:
    # as К or Ш: hands raised against Ч or Д
    return sum(1 for role in _hands_of(game, seat) if role in BLACK_ROLES) if seat.role in RED_ROLES else 0


def _votes_for_partner(game: GameFacts, seat: SeatFacts) -> int:
    # as Ч or Д: hands raised against a teammate (never his own seat: a player does not vote against himself here)
    if seat.role not in BLACK_ROLES:
        return 0
    return sum(1 for voter, candidate in game.hands
               if voter == seat.number and candidate != seat.number and game.roles.get(candidate) in BLACK_ROLES)


def _votes_on_sheriff(game: GameFacts, seat: SeatFacts) -> int:
    # hands raised against the Ш by anyone else
    return sum(1 for role in _hands_of(game, seat) if role == SHERIFF) if seat.role != SHERIFF else 0


def _sheriff_nominations(game: GameFacts, seat: SeatFacts) -> int:
    # nominations this seat made of the Ш; a withdrawn one (001 r.20–22) is not counted
    return sum(1 for n in game.nominations if n.get("by") == seat.number and not n.get("withdrawn")
               and game.roles.get(n.get("nominee", 0), "") == SHERIFF)


def _flag():
    return models.BooleanField(default=False)


def _points():
    return models.DecimalField(**POINTS)


def _small():
    return models.PositiveSmallIntegerField(default=0)


FACTS: list[Fact] = [
    Fact("won", _flag, _seat("won")),
    Fact("main", _points, _seat("main")),
    Fact("extras", _points, _seat("extras")),
    Fact("total", _points, _seat("total")),
    Fact("tiebreak_extras", _points, _seat("tiebreak_extras")),
    Fact("difficult", _flag, _seat("difficult")),
    Fact("fouls", _small, _seat("fouls")),
    Fact("first_night_death", _flag, _seat("first_night_death")),
    Fact("best_move_blacks", lambda: models.PositiveSmallIntegerField(null=True), _best_move_blacks),
]


# ---------------------------------------------------------------------------------------------- statistics
STATISTICS: list[Statistic] = [
    Statistic("games", _("Games")),
    Statistic("wins", _("Wins"), when=(("won", True),)),
    Statistic("main", _("points"), how="sum", fact="main", decimal=True),
    Statistic("extras", _("extra points"), how="sum", fact="extras", decimal=True),
    Statistic("total", _("Total"), how="sum", fact="total", decimal=True),
    Statistic("tiebreak_extras", _("extra points"), how="sum", fact="tiebreak_extras", decimal=True),
    Statistic("wins_difficult", _("Wins"), when=(("won", True), ("difficult", True))),
    Statistic("extras_difficult", _("extra points"), how="sum", fact="tiebreak_extras", decimal=True,
              when=(("difficult", True),)),
    Statistic("first_night_deaths", _("First-night deaths"), when=(("first_night_death", True),),
              display="integer"),
    Statistic("fouls", _("Fouls"), how="sum", fact="fouls"),
    *(Statistic(f"{name}_{what}", _("Games") if what == "games" else _("Wins"),
                when=(("role", letter),) if what == "games" else (("role", letter), ("won", True)))
      for letter, name in ROLE_FIELDS.items() for what in ("games", "wins")),
    Statistic("best_moves", _("Best moves"), when=(("best_move_blacks", NOT_NULL),)),
    Statistic("best_move_blacks", _("Best moves"), how="sum", fact="best_move_blacks",
              when=(("best_move_blacks", NOT_NULL),)),
    # as Ш: checks that found Ч or Д
    Statistic("sheriff_black_finds", _("Sheriff's black finds"), compute=_sheriff_black_finds, display="integer",
              testid="sheriff-finds"),
    # as Д: checks that found the Ш
    Statistic("don_sheriff_finds", _("Don's sheriff finds"), compute=_don_sheriff_finds, display="integer",
              testid="don-finds"),
    Statistic("black_nominations", _("Nominated blacks"), compute=_black_nominations, display="integer"),
    Statistic("sheriff_nominations", _("Nominated the sheriff"), compute=_sheriff_nominations, display="integer"),
    # who voted for whom (docs/rules.md I47), from the games that record it
    Statistic("votes_recorded", _("Votes recorded"), compute=_votes_recorded, display="integer"),
    Statistic("red_votes_on_black", _("Votes against blacks (as red)"), compute=_red_votes_on_black,
              display="integer"),
    Statistic("votes_for_partner", _("Votes against his partner (as black)"), compute=_votes_for_partner,
              display="integer"),
    Statistic("votes_on_sheriff", _("Votes against the sheriff"), compute=_votes_on_sheriff, display="integer"),
]
FACTS += [Fact(s.key, _small, s.compute) for s in STATISTICS if s.compute is not None]

STAT_FIELDS = [s.key for s in STATISTICS]
FACT_KEYS = [f.key for f in FACTS]


def register(statistic: Statistic) -> None:
    """Add a statistic after import (a test's: the lists above are changed in place, so every reader sees it; the
    model columns are the caller's to add)."""
    STATISTICS.append(statistic)
    STAT_FIELDS.append(statistic.key)
    if statistic.compute is not None:
        FACTS.append(Fact(statistic.key, _small, statistic.compute))
        FACT_KEYS.append(statistic.key)


def unregister(key: str) -> None:
    """Undo `register` (a test's cleanup)."""
    STATISTICS[:] = [e for e in STATISTICS if e.key != key]
    FACTS[:] = [e for e in FACTS if e.key != key]
    for keys in (STAT_FIELDS, FACT_KEYS):
        keys[:] = [k for k in keys if k != key]


# ---------------------------------------------------------------------------------------------- tie-breakers
@dataclass(frozen=True)
class Tiebreaker:
    """A tie-breaker a rule set may name (`RuleSet.tiebreakers`, docs/rules.md D8; 000 T6.2–6.2.4, 002 III.14–14.6):
    the statistic it compares (more is better), or None for the lot (drawn once and stored, lower first)."""

    key: str
    label: Any
    statistic: str | None


TIEBREAKERS: list[Tiebreaker] = [
    Tiebreaker(TB_TOTAL, _("Total points"), "total"),
    Tiebreaker(TB_EXTRAS, _("Extra points"), "tiebreak_extras"),  # docs/rules.md A16: the rule set's extras bucket
    Tiebreaker(TB_WINS, _("Wins"), "wins"),
    # 000 T6.2.2 wins as Д or Ш; 002 III.14.3 wins on a "difficult card" (docs/rules.md A17)
    Tiebreaker(TB_WINS_DIFFICULT, _("Wins on a difficult card"), "wins_difficult"),
    Tiebreaker(TB_EXTRAS_DIFFICULT, _("Extra points on a difficult card"), "extras_difficult"),  # 002 III.14.4
    Tiebreaker(TB_FIRST_NIGHT_DEATHS, _("First-night deaths"), "first_night_deaths"),  # 000 T6.2.3, 002 III.14.5
    Tiebreaker(TB_LOT, _("Lot"), None),  # 000 T6.2.4, 002 III.14.6
]
assert [t.key for t in TIEBREAKERS] == list(TIEBREAKER_KEYS), "every key a rule set may name, declared once"
assert all(t.statistic in STAT_FIELDS for t in TIEBREAKERS if t.statistic), "a tie-breaker compares a statistic"


def tiebreaker_label(key: str) -> str:
    """A tie-breaker's label in the active language ("" for a key no rule set may name)."""
    return next((str(t.label) for t in TIEBREAKERS if t.key == key), "")


def contribute_facts(model) -> None:
    """Add the registry's fact columns to `PlayerGame` (called once, below the class)."""
    for fact in FACTS:
        model.add_to_class(fact.key, fact.field())


def contribute_statistics(model) -> None:
    """Add the registry's statistic columns to `PlayerStats` (called once, below the class)."""
    for statistic in STATISTICS:
        model.add_to_class(statistic.key, statistic.field())


@dataclass(frozen=True)
class Figure:
    key: str
    label: Any
    value: Any
    display: str
    testid: str


def _shown(statistic: Statistic, stats):
    value = getattr(stats, statistic.key)
    if statistic.display == "percent":  # a share of the player's games
        return 100 * value / stats.games if stats.games else None
    return value


def card_figures(stats) -> list[Figure]:
    """The statistics the card and the API show as they are (those with a `display`), from a PlayerStats row."""
    if stats is None:
        return []
    return [Figure(s.key, s.label, _shown(s, stats), s.display, s.testid or f"stat-{s.key}")
            for s in STATISTICS if s.display]
