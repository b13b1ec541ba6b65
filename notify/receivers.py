"""The hooks into the rest of the site: Django's post_save of the models whose changes the club's chat and the
players hear of. Each receiver only queues outbox rows (inside the change's transaction, so a rolled-back change
sends nothing) through `notify.events`; nothing here calls Telegram."""

from __future__ import annotations

import datetime as dt

from django.db.models.signals import post_save
from django.utils import timezone

from games.models import Game, Protest
from games.tournaments.signups.models import Signup, SignupSheet
from notify import events

RECENT = dt.timedelta(days=1)  # a game signed longer ago (an old protocol imported as signed) sends no result


def sheet_saved(sender, instance: SignupSheet, **kwargs) -> None:
    if events.club_chat_id(instance.club_id) is None:
        return
    if not events.announce(instance):
        events.refresh(instance.pk)


def signup_saved(sender, instance: Signup, update_fields=None, **kwargs) -> None:
    events.refresh(instance.sheet_id)
    moved = update_fields is not None and "promoted_at" in update_fields
    if moved and instance.status == Signup.Status.CONFIRMED and instance.player.user_id:
        events.moved_up(instance)


def game_saved(sender, instance: Game, **kwargs) -> None:
    if instance.status != Game.Status.SIGNED or instance.signed_by_id is None or instance.signed_at is None:
        return
    if instance.signed_at < timezone.now() - RECENT:
        return
    events.results(instance)


def protest_saved(sender, instance: Protest, created: bool = False, **kwargs) -> None:
    if created:
        events.protest_filed(instance)
    elif instance.status != Protest.Status.PENDING:
        events.protest_decided(instance)


def connect() -> None:
    post_save.connect(sheet_saved, sender=SignupSheet, dispatch_uid="notify.sheet_saved")
    post_save.connect(signup_saved, sender=Signup, dispatch_uid="notify.signup_saved")
    post_save.connect(game_saved, sender=Game, dispatch_uid="notify.game_saved")
    post_save.connect(protest_saved, sender=Protest, dispatch_uid="notify.protest_saved")
