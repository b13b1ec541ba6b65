from django import template

from ratings.selectors import player_summary

register = template.Library()


@register.inclusion_tag("ratings/_player_summary_body.html")
def player_rating_summary(player):
    """The current season's line of a player, for the club's player page (two queries)."""
    season, stats = player_summary(player, player.club)
    return {"player": player, "season": season, "stats": stats}
