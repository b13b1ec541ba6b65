"""The sign-up's letters: a place taken (or a place on the waiting list) and a place moved up from the waiting list.

Queued when the sign-up commits and sent by the task worker (`manage.py db_worker`), as the protest letters are: a
slow or absent mail server never delays a sign-up nor fails a request whose place is already taken. The letter goes
through Django's mail backend (settings.EMAIL_BACKEND, EMAIL_TIMEOUT) to the player's login address; a player
without an address gets no letter, nor one whose place was given back before the worker ran. The texts are the
templates beside the password-reset ones (templates/registration/signup_*.txt), in the club's language through the
message catalogues.
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django_tasks import task

from club.task_queue import enqueue
from games.tournaments.signups.models import OFF_THE_LIST, Signup


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


def _signup(signup_id: int) -> Signup | None:
    signup = (Signup.objects.select_related("player__user", "sheet__evening", "sheet__tournament")
              .filter(pk=signup_id).first())
    if signup is None or signup.status in OFF_THE_LIST:
        return None
    return signup


@task()
def mail_signed_up(signup_id: int, status: str) -> int:
    """The worker's task: the letter of a place taken, or of a place on the waiting list (`status`, as it was when
    the player signed up), in the club's language."""
    signup = _signup(signup_id)
    if signup is None:
        return 0
    signup.status = status
    with translation.override(settings.LANGUAGE_CODE):
        return _send(signup, "signup_confirmed")


@task()
def mail_moved_up(signup_id: int) -> int:
    """The worker's task: the letter of a place moved up from the waiting list."""
    signup = _signup(signup_id)
    if signup is None:
        return 0
    with translation.override(settings.LANGUAGE_CODE):
        return _send(signup, "signup_moved_up")


def _queue(t, *args) -> None:
    # robust: a queue that cannot take the task (or, with TASKS_BACKEND=immediate, a mail server that is down) is
    # logged, and the page still answers for the place that is already taken
    transaction.on_commit(lambda: enqueue(t, *args), robust=True)


def signed_up(signup: Signup) -> None:
    """Queue the letter of a sign-up when its transaction commits."""
    _queue(mail_signed_up, signup.pk, str(signup.status))


def moved_up(signup: Signup) -> None:
    """Queue the letter of a move up from the waiting list when its transaction commits."""
    _queue(mail_moved_up, signup.pk)
