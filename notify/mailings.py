"""The organiser's message to an audience of an event (signed up / waiting / all the club's members) by Telegram
and by e-mail, and the letters' one-click unsubscribe (`List-Unsubscribe`, RFC 8058) per kind of notice."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from club.models import Player
from club.selectors import member_players
from club.services import ServiceError
from games.tournaments.signups.models import Signup, SignupSheet
from games.tournaments.signups.permissions import can_organise
from notify import outbox, render

AUDIENCES = ("confirmed", "waiting", "members")
SALT = "notify.unsubscribe"
TEXT_MAX = 3000


def unsubscribe_token(user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=SALT, compress=True)


def read_unsubscribe(token: str) -> tuple[int, str] | None:
    try:
        data = signing.loads(token, salt=SALT)
        return int(data["u"]), str(data["k"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


def mail(user, kind: str, key: str, subject: str, body: str) -> int:
    """Queue one letter (once per key) with its one-click unsubscribe of this kind."""
    url = settings.SITE_URL + reverse("notify:unsubscribe", args=[unsubscribe_token(user.pk, kind)])
    headers = {"List-Unsubscribe": f"<{url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    footer = render.text("unsubscribe_footer", settings.LANGUAGE_CODE, url=url)
    return int(outbox.put(f"{key}:{user.pk}:mail", 0, {"to": user.email, "subject": subject,
                                                      "body": f"{body}\n\n-- \n{footer}", "headers": headers},
                          method="mail", channel=outbox.EMAIL))


def audience(sheet: SignupSheet, who: str) -> list:
    """The logins of an audience: those signed up, those waiting, or every member (player with a login) of the club."""
    if who == "members":
        players = member_players(sheet.club_id).filter(user__isnull=False, user__is_active=True)
    else:
        status = Signup.Status.CONFIRMED if who == "confirmed" else Signup.Status.WAITING
        players = Player.objects.filter(signups__sheet=sheet, signups__status=status, user__isnull=False)
    return [p.user for p in players.select_related("user").order_by("pk")]


def send_message(*, sheet: SignupSheet, by, who: str, body: str, channels: set[str]) -> int:
    """Queue the organiser's message to the audience, by the channels asked and each player's switches."""
    if not can_organise(by, sheet):
        raise PermissionDenied
    body = body.strip()
    if who not in AUDIENCES:
        raise ServiceError(_("Audience: choose those signed up, those waiting or all members."), field="who")
    if not body or len(body) > TEXT_MAX:
        raise ServiceError(_("Text: from 1 to %(n)d characters.") % {"n": TEXT_MAX}, field="body")
    if not channels or not channels <= {outbox.TELEGRAM, outbox.EMAIL}:
        raise ServiceError(_("Channels: choose Telegram, e-mail or both."), field="channels")
    key = f"mailing:{sheet.pk}:{uuid.uuid4().hex[:12]}"
    facts = render.sheet_facts(sheet)
    queued = 0
    with transaction.atomic():
        for user in audience(sheet, who):
            queued += _to_one(user, key, facts, body, channels)
    return queued


def _to_one(user, key: str, facts: dict, body: str, channels: set[str]) -> int:
    queued = 0
    link = outbox.telegram_chat(user, "mailing") if outbox.TELEGRAM in channels else None
    if link is not None:
        lang = render.language(link[1])
        queued += outbox.put(f"{key}:{user.pk}", link[0],
                             {"text": render.text("mailing", lang, event=facts["event"], body=body)})
    if outbox.EMAIL in channels and user.email and outbox.wants(user, "mailing", outbox.EMAIL):
        queued += mail(user, "mailing", key, facts["event"],
                       render.text("mailing", settings.LANGUAGE_CODE, event=facts["event"], body=body))
    return queued
