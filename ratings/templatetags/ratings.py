from django import template

from ratings.selectors import player_summary

register = template.Library()


@register.inclusion_tag("ratings/_player_summary_body.html")
def player_rating_summary(player):
    """The current season's line of a player, for the club's player page (two queries)."""
    season, stats = player_summary(player, player.club)
    return {"player": player, "season": season, "stats": stats}


@register.simple_tag
def game_elo(game):
    """The Elo changes of a game by player id (the protocol page; one query; empty for a game that does not count)."""
    from ratings.selectors_elo import game_elo as changes

    return changes(game) if game.counts else {}


@register.filter
def elo_of(changes, player_id):
    return changes.get(player_id) if changes else None


@register.inclusion_tag("ratings/_home_top.html")
def home_top(club):
    """The home page's season top ten and Elo top five."""
    from ratings.selectors_home import elo_top, season_top

    season, top = season_top(club)
    return {"season": season, "top": top, "elo": elo_top(club)}
