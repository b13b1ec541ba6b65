from django import template

from club.selectors import get_site_club
from games.models import Game
from games.selectors import with_protest_flag

register = template.Library()


@register.inclusion_tag("games/_game_list.html")
def latest_games(limit: int = 10):
    club = get_site_club()
    games = (with_protest_flag(Game.objects.filter(club=club)).select_related("tournament", "evening")
             .order_by("-date", "-id")[:limit] if club else [])
    return {"games": games}


@register.inclusion_tag("games/_evening_list.html")
def latest_evenings(limit: int = 5):
    from games.evenings import recent_evenings

    return {"evenings": recent_evenings(get_site_club(), limit)}
