"""Reading one game of a `mafclub/1` document (games/rules/interchange.py): typed getters that collect each
structural problem with its path and return a safe default, so a reader reports every problem at once. Pure Python.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from typing import Any

from .i18n import N_
from .problems import Problem, error_t

_NOT_POINTS = N_("must be a number of points, got %(got)s")
# The largest whole number both databases (SQLite, PostgreSQL) store in a positive integer column: game numbers,
# tables and lots above it are refused here with the limit instead of failing (or differing) in the database.
MAX_INTEGER = 2**31 - 1
# Points are stored with 14 digits, 6 of them after the decimal point.
MAX_POINTS = Decimal("99999999.999999")


class Reader:
    """Collects problems while reading one game; each getter returns a safe default on bad input."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.problems: list[Problem] = []

    def fail(self, path: str, template: str, **params: Any) -> None:
        """A structural problem at `path`; `template` is marked with N_, `params` fill it."""
        self.problems.append(error_t(path, template, **params))

    def integer(self, value: Any, path: str, *, low: int | None = None, high: int | None = None,
                optional: bool = False) -> int | None:
        if value is None and optional:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, N_("must be a whole number, got %(got)s"), got=repr(value))
            return None
        if (low is not None and value < low) or (high is not None and value > high):
            self.fail(path, N_("must be between %(low)s and %(high)s, got %(got)s"), low=low, high=high, got=value)
            return None
        return value

    def seat_no(self, value: Any, path: str, *, optional: bool = False) -> int | None:
        return self.integer(value, path, low=1, high=10, optional=optional)

    def points(self, value: Any, path: str) -> Decimal | None:
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            self.fail(path, _NOT_POINTS, got=repr(value))
            return None
        try:
            result = Decimal(str(value))
        except InvalidOperation:
            self.fail(path, _NOT_POINTS, got=repr(value))
            return None
        if not result.is_finite():
            self.fail(path, N_("must be a finite number, got %(got)s"), got=repr(value))
            return None
        if abs(result) > MAX_POINTS:
            self.fail(path, N_("must be between %(low)s and %(high)s, got %(got)s"), low=-MAX_POINTS,
                      high=MAX_POINTS, got=repr(value))
            return None
        return result

    def text(self, value: Any, path: str, *, optional: bool = True) -> str:
        if value is None and optional:
            return ""
        if not isinstance(value, str):
            self.fail(path, N_("must be text, got %(got)s"), got=repr(value))
            return ""
        return value

    def obj(self, value: Any, path: str) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.fail(path, N_("must be an object, got %(got)s"), got=type(value).__name__)
            return None
        return value

    def objects(self, value: Any, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
        """(path of the item, the item) for each object of an optional list; bad items are reported and skipped."""
        for i, item in enumerate(self.array(value, path) or []):
            obj = self.obj(item, f"{path}[{i}]")
            if obj is not None:
                yield f"{path}[{i}]", obj

    def array(self, value: Any, path: str, *, optional: bool = True) -> list[Any] | None:
        if value is None and optional:
            return None
        if not isinstance(value, list):
            self.fail(path, N_("must be a list, got %(got)s"), got=type(value).__name__)
            return None
        return value
