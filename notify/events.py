"""What the site's changes send: the services the receivers (notify/receivers.py) and the periodic pass
(notify/schedule.py) call. Each queues its messages through `notify.outbox.put` under a key naming the event, the
recipient and the kind, so a hook that runs twice sends nothing twice."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game, Protest
from games.protests.mail import protest_reviewers
from games.tournaments.signups.models import Signup, SignupSheet
from notify import outbox, render
from notify.models import Announcement, ClubChat, Outbox


def club_chat_id(club_id: int) -> int | None:
    return ClubChat.objects.filter(club_id=club_id, chat_id__isnull=False).values_list("chat_id", flat=True).first()


def announce(sheet: SignupSheet, now: dt.datetime | None = None) -> bool:
    """Post the sheet to the club's chat once its sign-up is open (and the event not past)."""
    now = now or timezone.now()
    chat_id = club_chat_id(sheet.club_id)
    if chat_id is None or sheet.opens_at > now or sheet.closes_at <= now or sheet.converted_at is not None:
        return False
    if Announcement.objects.filter(sheet=sheet).exists():
        return False
    Announcement.objects.create(sheet=sheet, chat_id=chat_id)
    return outbox.put(f"announce:{sheet.pk}", chat_id, {"render": "announce"}, sheet_id=sheet.pk)


def refresh(sheet_id: int) -> bool:
    """Edit the announcement to the current count (one edit waiting at a time: it draws the count when sent)."""
    posted = Announcement.objects.filter(sheet_id=sheet_id).first()
    if posted is None:
        return False
    if Outbox.objects.filter(sheet_id=sheet_id, method="editMessageText", status=Outbox.Status.PENDING).exists():
        return False
    Announcement.objects.filter(pk=posted.pk).update(edits=posted.edits + 1)
    return outbox.put(f"edit:{sheet_id}:{posted.edits + 1}", posted.chat_id, {"render": "edit"},
                      method="editMessageText", sheet_id=sheet_id)


def _private(user, kind: str, key: str, template: str, **context) -> bool:
    link = outbox.telegram_chat(user, kind)
    if link is None:
        return False
    chat_id, lang = link[0], render.language(link[1])
    return outbox.put(f"{key}:{user.pk}", chat_id, {"text": render.text(template, lang, **context)})


def moved_up(signup: Signup) -> bool:
    """The player moved up from the waiting list is told privately."""
    facts = render.sheet_facts(signup.sheet)
    return _private(signup.player.user, "moved_up", f"moved_up:{signup.pk}:{int(signup.promoted_at.timestamp()) if signup.promoted_at else 0}", "moved_up",
                    **facts)


def remind(sheet: SignupSheet) -> int:
    """Those signed up for the sheet, a few hours before it starts (telegram and e-mail, as each player wants)."""
    facts = render.sheet_facts(sheet)
    sent = 0
    for signup in sheet.signups.filter(status=Signup.Status.CONFIRMED).select_related("player__user"):
        user = signup.player.user
        if user is None:
            continue
        sent += _private(user, "reminder", f"reminder:{sheet.pk}", "reminder", **facts)
        if user.email and outbox.wants(user, "reminder", outbox.EMAIL):
            from notify import mailings  # noqa: PLC0415 (mailings imports this module's audience helpers)

            sent += mailings.mail(user, "reminder", f"reminder:{sheet.pk}",
                                  _("Reminder: %(event)s") % {"event": facts["event"]},
                                  render.text("reminder", settings.LANGUAGE_CODE, **facts))
    return sent


def results(game: Game) -> int:
    """Each linked player who played a signed game: his result (drawn when sent, with his Elo change)."""
    if game.status != Game.Status.SIGNED or game.results_hidden:
        return 0
    sent = 0
    for seat in game.seats.select_related("player__user"):
        user = seat.player.user
        link = outbox.telegram_chat(user, "result")
        if user is None or link is None:
            continue
        sent += outbox.put(f"result:{game.pk}:{user.pk}", link[0],
                           {"render": "result", "game": game.pk, "player": seat.player_id,
                            "lang": render.language(link[1])})
    return sent


def _protest_context(protest: Protest) -> dict:
    return {"game": protest.game.listed_name, "category": protest.get_category_display(),
            "decision": protest.get_status_display(),
            "url": render.site_url(reverse("games:protest_detail", args=[protest.pk])) if settings.SITE_URL else ""}


def protest_filed(protest: Protest) -> int:
    """The head judges (who review it) are told of a new protest."""
    context = _protest_context(protest)
    return sum(_private(user, "protest", f"protest_filed:{protest.pk}", "protest_filed", **context)
               for user in protest_reviewers(protest.game))


def protest_decided(protest: Protest) -> int:
    """The filer and the table judge are told of the decision."""
    context = _protest_context(protest)
    users = {u.pk: u for u in (protest.filed_by, protest.game.judge) if u is not None}
    return sum(_private(user, "protest", f"protest_decided:{protest.pk}", "protest_decided", **context)
               for user in users.values())
