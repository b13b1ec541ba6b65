from django import template

from club.selectors import get_site_club
from games.models import Game
from games.selectors import with_protest_flag

register = template.Library()


@register.inclusion_tag("games/_game_list.html")
def latest_games(limit: int = 10):
    club = get_site_club()
    games = (with_protest_flag(Game.objects.filter(club=club)).select_related("tournament")
             .order_by("-date", "-id")[:limit] if club else [])
    return {"games": games}
