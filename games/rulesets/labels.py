"""The tie-breakers' labels the rule-set pages show. They are declared with the statistics they compare, in the
ratings layer (`ratings.statistics.registry.TIEBREAKERS`), which registers its reader here when it starts
(`ratings.apps`; games never imports ratings, as with `games.tournaments.base.RANKERS`)."""

from __future__ import annotations

from collections.abc import Callable

TIEBREAKER_LABELERS: list[Callable[[str], str]] = []


def tiebreaker_label(key: str) -> str:
    """The tie-breaker's label in the active language; the key itself when nobody declares it."""
    label = TIEBREAKER_LABELERS[-1](key) if TIEBREAKER_LABELERS else ""
    return label or key
