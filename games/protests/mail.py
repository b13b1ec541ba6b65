"""The letters of protests: the reviewers told of a filing, the filer and the table judge told of a decision.

They go out from the worker (django-tasks), queued by `games.protests.services` when the filing or the decision
commits, in the club's language.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django_tasks import task

from club.models import Membership
from games.models import Game, Protest
from games.permissions import can_review_protest, head_judge_judged_the_table, head_judge_played
from games.protests.times import format_club_time


def protest_reviewers(game: Game) -> list:
    """The users who review the game's protests (can_review_protest): the tournament's head judge, else the club's
    head judges; the club admins when the head judge judged that table or played in it. Superusers are not mailed."""
    roles = []
    tournament = game.tournament
    if tournament is None or tournament.head_judge_id is None:
        roles.append(Membership.Role.HEAD_JUDGE)
    if head_judge_judged_the_table(game) or head_judge_played(game):
        roles.append(Membership.Role.ADMIN)
    users = get_user_model().objects.filter(is_active=True)
    candidates = list(users.filter(memberships__club_id=game.club_id, memberships__role__in=roles).distinct()
                      if roles else [])
    if tournament is not None and tournament.head_judge_id is not None:
        candidates += list(users.filter(pk=tournament.head_judge_id))
    unique = {u.pk: u for u in candidates}
    return [unique[pk] for pk in sorted(unique) if can_review_protest(unique[pk], game)]


# The letters go out from the worker, queued when the filing or the decision commits: a slow or absent mail server
# neither delays the head judge's decision nor fails a request whose write is already committed.
@task()
def mail_protest_filed(protest_id: int) -> int:
    """The worker's task: `notify_filed` (the club's language)."""
    protest = Protest.objects.select_related("player").filter(pk=protest_id).first()
    if protest is None:
        return 0
    with translation.override(settings.LANGUAGE_CODE):
        return notify_filed(protest)


@task()
def mail_protest_decision(protest_id: int) -> int:
    """The worker's task: `notify_decision` (the club's language)."""
    protest = (Protest.objects.select_related("game__judge", "filed_by", "player__user", "decided_by")
               .filter(pk=protest_id).first())
    if protest is None:
        return 0
    with translation.override(settings.LANGUAGE_CODE):
        return notify_decision(protest)


def notify_filed(protest: Protest) -> int:
    """E-mail the reviewers that a protest awaits their decision (sent after the filing's commit)."""
    game = Game.objects.select_related("club", "tournament", "evening", "judge").get(pk=protest.game_id)
    recipients = sorted({u.email for u in protest_reviewers(game) if u.email})
    if not recipients:
        return 0

    subject = _("Protest #%(id)s filed: %(game)s") % {"id": protest.pk, "game": game.listed_name}
    body = _("A protest against %(game)s awaits your decision.\n\nFiled by %(player)s (seat %(seat)s) at "
             "%(at)s.\nCategory: %(category)s.\n\n%(text)s\n\nReview it: %(url)s") % {
        "game": game.listed_name, "player": protest.player or "", "seat": protest.seat,
        "at": format_club_time(protest.filed_at), "category": protest.get_category_display(),
        "text": protest.text, "url": reverse("games:protest_detail", args=[protest.pk])}
    return send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, recipients)


def notify_decision(protest: Protest) -> int:
    """E-mail the filer and the table judge (Django's mail backend; the console in development)."""
    game = protest.game
    recipients = {u.email for u in (protest.filed_by, getattr(protest.player, "user", None), game.judge)
                  if u is not None and u.email}
    if not recipients:
        return 0
    words = {"id": protest.pk, "game": game.listed_name, "status": protest.get_status_display()}
    subject = _("Protest #%(id)s, %(game)s: %(status)s") % words
    body = _("The protest against %(game)s was decided: %(status)s.\n\n%(explanation)s\n\nDecided by %(by)s at "
             "%(at)s. The decision is final.") % {**words, "explanation": protest.explanation,
        "by": protest.decided_by.get_username() if protest.decided_by else "",
        "at": format_club_time(protest.decided_at) if protest.decided_at else ""}
    return send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, sorted(recipients))
