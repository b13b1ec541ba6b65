"""The game page's protest section, included without touching the game view."""

from django import template

register = template.Library()


@register.inclusion_tag("games/_protests.html", takes_context=True)
def protests_panel(context, game):
    from games.views_protests import protests_panel_context

    data = protests_panel_context(context["request"], game)
    data["csrf_token"] = context.get("csrf_token")  # an inclusion tag gets a fresh context
    return data
