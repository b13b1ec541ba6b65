"""Data for the pages of other apps (the player card, the tournament page): they load these tags, so games and
ratings never import leagues. Tags return data; the templates write it (no HTML here)."""

from __future__ import annotations

from django import template

from leagues import selectors

register = template.Library()


@register.simple_tag
def player_series(player_id: int) -> list[selectors.PlayerSeriesLine]:
    """The series the player has points in, with his place and total."""
    return selectors.player_series(player_id)


@register.simple_tag
def tournament_strength(tournament) -> selectors.Strength:
    """Participants, their clubs and cities, the mean Elo of the field and of its top 20."""
    return selectors.tournament_strength(tournament)
