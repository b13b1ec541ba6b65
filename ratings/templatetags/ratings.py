from django import template

from ratings.elo.selectors import game_elo as changes
from ratings.standings.selectors_home import elo_top, season_top

register = template.Library()


@register.simple_tag
def game_elo(game):
    """The Elo changes of a game by player id (the protocol page; one query; empty for a game that does not count)."""
    return changes(game) if game.counts else {}


@register.filter
def elo_of(changes, player_id):
    return changes.get(player_id) if changes else None


@register.inclusion_tag("ratings/_home_top.html")
def home_top(club):
    """The home page's season top ten and Elo top five."""
    season, top = season_top(club)
    return {"season": season, "top": top, "elo": elo_top(club)}
