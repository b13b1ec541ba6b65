"""`{% overlay_link event %}`: the organiser's small "overlay" link on an event's page and the judge's screen."""

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from broadcast.permissions import can_manage_overlays
from games.models import Tournament

register = template.Library()


@register.simple_tag(takes_context=True)
def overlay_link(context, event, css: str = "small"):
    """A link to the event's overlay tokens for whoever may manage them; nothing for anyone else."""
    request = context.get("request")
    if event is None or request is None or not can_manage_overlays(request.user, event):
        return ""
    kind = "tournament" if isinstance(event, Tournament) else "evening"
    return format_html('<a class="{}" href="{}" data-testid="overlay-link">{}</a>', css,
                       reverse(f"broadcast:manage_{kind}", args=[event.pk]), _("Overlay for OBS"))
