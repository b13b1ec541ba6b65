"""The club's home page, the games' part: the next events with their sign-up, the games played now, the latest
results named with their event."""

import datetime as dt

from django import template
from django.utils import timezone

from club.selectors import get_site_club
from games.models import ClubEvening
from games.protocol import selectors_home
from games.tournaments.signups.permissions import can_organise_event
from games.tournaments.signups.selectors import home_cards, sheet_card, sheet_of

register = template.Library()


@register.inclusion_tag("games/signups/_home_events.html", takes_context=True)
def home_events(context):
    """What is on: the events with a sign-up (their cards) and those without one (date, time, place), soonest
    first."""
    request = context.get("request")
    user = getattr(request, "user", None)
    club = get_site_club()
    entries = [(timezone.localtime(card.sheet.starts_at).replace(tzinfo=None), {"card": card})
               for card in home_cards(club, user)]
    entries += [(dt.datetime.combine(*selectors_home.event_start(event)), {"event": event})  # type: ignore[dict-item]
                for event in selectors_home.upcoming_events(club)]
    entries.sort(key=lambda entry: entry[0])
    return {"entries": [entry for _at, entry in entries], "request": request, "user": user,
            "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("games/_playing_now.html")
def playing_now(limit: int = 10):
    return {"games": selectors_home.playing_now(get_site_club(), limit)}


@register.inclusion_tag("games/_latest_results.html", takes_context=True)
def latest_results(context, limit: int = 10):
    request = context.get("request")
    return {"games": selectors_home.latest_results(get_site_club(), getattr(request, "user", None), limit)}


@register.inclusion_tag("games/signups/_event_signup.html", takes_context=True)
def event_signup(context, event):
    """The sign-up card on an event's own page (club evening, tournament); for its organiser, the way to open one."""
    request = context.get("request")
    user = getattr(request, "user", None)
    sheet = sheet_of(event)
    return {"card": sheet_card(sheet, user) if sheet is not None else None, "event": event, "request": request,
            "user": user, "csrf_token": context.get("csrf_token"),
            "can_open": sheet is None and can_organise_event(user, event),
            "kind": "evening" if isinstance(event, ClubEvening) else "tournament"}
