from django import template
from django.utils.dateformat import format as format_date
from django.utils.translation import gettext as _

from club.templatetags.points import points
from ratings.elo.selectors import game_elo as changes
from ratings.standings import rows_html
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


@register.filter
def chart_point_text(point, key: str) -> str:
    """What a tap or a hover on a point of the card's chart says: the game, its date and the series' value."""
    game = _("game %(number)s, %(date)s") % {"number": point.game.number, "date": format_date(point.game.date, "j E Y")}
    if key == "points":
        value = _("%(points)s points") % {"points": points(point.value)}
    elif key == "rank":
        value = _("place %(rank)s") % {"rank": point.value}
    else:
        value = _("Elo %(elo)s") % {"elo": round(point.value)}
    return f"{game}: {value}"


@register.simple_tag
def standings_rows(rows):
    """The body rows of a standings table (`ratings.standings.rows_html`: written in Python, every value escaped)."""
    return rows_html.standings_rows(rows)


@register.simple_tag
def standings_row(row):
    return rows_html.standings_rows([row])


@register.simple_tag
def tie_notes(notes):
    """The footnotes of the decided ties under a standings table."""
    return rows_html.tie_notes(notes)


@register.simple_tag
def game_rows(rows):
    """The body rows of a profile's page of games."""
    return rows_html.game_rows(rows)


@register.simple_tag
def game_row(row):
    return rows_html.game_rows([row])


@register.simple_tag
def tournament_rows(rows):
    """The body rows of a profile's latest tournaments."""
    return rows_html.tournament_rows(rows)


@register.simple_tag
def tournament_row(row):
    return rows_html.tournament_rows([row])
