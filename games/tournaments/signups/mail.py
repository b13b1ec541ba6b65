"""The sign-up's letters: a place taken (or a place on the waiting list) and a place moved up from the waiting list.

Sent after the commit through Django's mail backend (settings.EMAIL_BACKEND) to the player's login address; a
player without an address gets no letter. The texts are the Russian templates beside the password-reset ones
(templates/registration/signup_*.txt).
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse

from games.tournaments.signups.models import Signup


def _send(signup: Signup, name: str) -> int:
    user = signup.player.user
    if user is None or not user.email:
        return 0
    sheet = signup.sheet
    context = {"signup": signup, "sheet": sheet, "event": sheet.event, "player": signup.player,
               "path": settings.SITE_URL + reverse("games:signup_sheet", args=[sheet.pk])}
    subject = " ".join(render_to_string(f"registration/{name}_subject.txt", context).split())
    body = render_to_string(f"registration/{name}_email.txt", context)
    return send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email])


def signed_up(signup: Signup) -> int:
    return _send(signup, "signup_confirmed")


def moved_up(signup: Signup) -> int:
    return _send(signup, "signup_moved_up")
