"""The gaining table — a tournament place turned into series points (docs/leagues.md); arithmetic on Decimals,
Django only for the messages' language.

The table is data (JSON, the command line's and the page's format):

    {"name": "Лига 2027", "best_of": 8,
     "stars": {"1": [10, 8, 6, 5, 4, 3, 2, 1], "2": [...], "3": [...], "4": [...], "5": [...]},
     "field": [[10, 0.5], [20, 1.0], [40, 1.25], [80, 1.5]]}

Points for place p in a tournament with s stars and n participants = stars[s][p-1] (0 past the list; a half star is
the mean of the two rows around it) × the field multiplier for n (linear between the listed points, flat outside
them), rounded to 2 decimals (half up). Players tied on a place share the mean of the tied places' points (each
place's points rounded first, the mean rounded again).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django.utils.translation import gettext as _

STAR_KEYS = ("1", "2", "3", "4", "5")
HUNDREDTH = Decimal("0.01")
MAX_PLACES = 1000
MAX_BEST_OF = 1000
NAME_MAX_LENGTH = 120


class TableError(ValueError):
    """The table is refused: `problems` lists every fault, each naming its entry ("stars.2[4]: ...")."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class GainingTable:
    name: str
    best_of: int
    stars: dict[str, tuple[Decimal, ...]]
    field: tuple[tuple[int, Decimal], ...]

    def as_json(self) -> dict:
        return {"name": self.name, "best_of": self.best_of,
                "stars": {k: [_number(v) for v in self.stars[k]] for k in STAR_KEYS},
                "field": [[n, _number(m)] for n, m in self.field]}

    def row(self, stars: Decimal) -> list[Decimal]:
        """The points by place for `stars` (1 to 5 in half steps): a half star is the mean of the rows around it."""
        low, high = int(stars), int(stars) if stars == int(stars) else int(stars) + 1
        lower, upper = self.stars[str(low)], self.stars[str(high)]
        size = max(len(lower), len(upper))
        return [(_at(lower, i) + _at(upper, i)) / 2 for i in range(size)]

    def multiplier(self, participants: int) -> Decimal:
        """The field multiplier for `participants`: linear between the listed points, flat outside them."""
        points = self.field
        if not points:
            return Decimal(1)
        if participants <= points[0][0]:
            return points[0][1]
        for (n0, m0), (n1, m1) in zip(points, points[1:], strict=False):
            if participants <= n1:
                return m0 + (m1 - m0) * Decimal(participants - n0) / Decimal(n1 - n0)
        return points[-1][1]

    def places_points(self, stars: Decimal, participants: int) -> list[Decimal]:
        """Points for places 1..participants (a tournament's column, computed once: row and multiplier)."""
        row, multiplier = self.row(stars), self.multiplier(participants)
        return [(_at(row, i) * multiplier).quantize(HUNDREDTH, rounding=ROUND_HALF_UP) for i in range(participants)]


def shared(points: list[Decimal], place: int, tied: int) -> Decimal:
    """The mean of places place..place+tied-1 of a column (`places_points`), 0 past its end."""
    tied = max(tied, 1)
    total = sum((_at(points, place - 1 + k) for k in range(tied)), Decimal(0))
    return (total / tied).quantize(HUNDREDTH, rounding=ROUND_HALF_UP)


def _at(row, index: int) -> Decimal:
    return row[index] if 0 <= index < len(row) else Decimal(0)


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def _decimal(value, where: str, problems: list[str]) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        problems.append(_("%(entry)s: a number is expected.") % {"entry": where})
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        problems.append(_("%(entry)s: a number is expected.") % {"entry": where})
        return None
    if not number.is_finite() or number < 0:
        problems.append(_("%(entry)s: a number of 0 or more is expected.") % {"entry": where})
        return None
    return number


def _stars(data, problems: list[str]) -> dict[str, tuple[Decimal, ...]]:
    if not isinstance(data, dict):
        problems.append(_("stars: an object with the rows 1 to 5 is expected."))
        return {}
    rows: dict[str, tuple[Decimal, ...]] = {}
    for key in data:
        if key not in STAR_KEYS:
            problems.append(_("stars.%(key)s: stars are 1 to 5.") % {"key": key})
    for key in STAR_KEYS:
        if key not in data:
            problems.append(_("stars.%(key)s: the row is missing.") % {"key": key})
            continue
        rows[key] = _star_row(key, data[key], problems)
    return rows


def _star_row(key: str, values, problems: list[str]) -> tuple[Decimal, ...]:
    if not isinstance(values, list) or len(values) > MAX_PLACES:
        problems.append(_("stars.%(key)s: a list of at most %(n)d points is expected.") % {"key": key, "n": MAX_PLACES})
        return ()
    row: list[Decimal] = []
    for i, value in enumerate(values):
        number = _decimal(value, f"stars.{key}[{i + 1}]", problems)
        if number is None:
            return ()
        if row and number > row[-1]:
            problems.append(_("stars.%(key)s[%(place)d]: place %(place)d earns more than place %(better)d (%(worse_points)s > %(better_points)s).")
                            % {"key": key, "place": i + 1, "better": i, "worse_points": value,
                               "better_points": _number(row[-1])})
        row.append(number)
    return tuple(row)


def _field(data, problems: list[str]) -> tuple[tuple[int, Decimal], ...]:
    if not isinstance(data, list):
        problems.append(_("field: a list of [participants, multiplier] pairs is expected."))
        return ()
    points: list[tuple[int, Decimal]] = []
    for i, pair in enumerate(data):
        where = f"field[{i + 1}]"
        if (not isinstance(pair, list) or len(pair) != 2 or isinstance(pair[0], bool)
                or not isinstance(pair[0], int) or pair[0] < 1):
            problems.append(_("%(entry)s: a pair [participants (1 or more), multiplier] is expected.") % {"entry": where})
            return ()
        multiplier = _decimal(pair[1], where, problems)
        if multiplier is None:
            return ()
        if points and pair[0] <= points[-1][0]:
            problems.append(_("%(entry)s: the participants must increase (%(n)d after %(before)d).")
                            % {"entry": where, "n": pair[0], "before": points[-1][0]})
        points.append((pair[0], multiplier))
    return tuple(points)


def parse(data) -> GainingTable:
    """The table from its JSON (a dict); TableError naming every faulty entry."""
    problems: list[str] = []
    if not isinstance(data, dict):
        raise TableError([_("table: a JSON object is expected.")])
    name = data.get("name", "")
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX_LENGTH:
        problems.append(_("name: a text of 1 to %(n)d characters is expected.") % {"n": NAME_MAX_LENGTH})
    best_of = data.get("best_of")
    if isinstance(best_of, bool) or not isinstance(best_of, int) or not 1 <= best_of <= MAX_BEST_OF:
        problems.append(_("best_of: a whole number from 1 to %(n)d is expected.") % {"n": MAX_BEST_OF})
    stars = _stars(data.get("stars"), problems)
    field = _field(data.get("field", []), problems)
    for key in sorted(set(data) - {"name", "best_of", "stars", "field"}):
        problems.append(_("%(entry)s: unknown entry.") % {"entry": key})
    if problems or not isinstance(best_of, int):
        raise TableError(problems)
    return GainingTable(name=name.strip(), best_of=best_of, stars=stars, field=field)


def valid_stars(value) -> Decimal | None:
    """`value` as stars (1 to 5 in half steps), or None."""
    try:
        stars = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
    if not stars.is_finite() or not Decimal(1) <= stars <= Decimal(5) or (stars * 2) != (stars * 2).to_integral_value():
        return None
    return stars.quantize(Decimal("0.1"))
