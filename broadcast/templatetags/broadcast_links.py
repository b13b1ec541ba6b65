"""`{% overlay_link event %}`: the organiser's small "overlay" link on an event's page and the judge's screen."""

from django import template
from django.urls import reverse

from broadcast.permissions import can_manage_overlays
from games.models import Tournament

register = template.Library()


@register.inclusion_tag("broadcast/_overlay_link.html", takes_context=True)
def overlay_link(context, event, css: str = "small") -> dict:
    """A link to the event's overlay tokens for whoever may manage them; nothing for anyone else."""
    request = context.get("request")
    if event is None or request is None or not can_manage_overlays(request.user, event):
        return {"url": ""}
    kind = "tournament" if isinstance(event, Tournament) else "evening"
    return {"css": css, "url": reverse(f"broadcast:manage_{kind}", args=[event.pk])}
