from django import template

from games.selectors import ProtocolView
from games.sheets import sheet_from_view

register = template.Library()


@register.simple_tag
def protocol_sheets(view: ProtocolView):
    """The printable sheet of the game page's `view` (same secrets), for `games/sheet.html#sheet-pages`."""
    return [sheet_from_view(view)]
