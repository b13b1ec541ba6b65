"""The writes that change a cached game page without bumping the game's version (games.page_cache)."""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save

from club.models import Club, Player
from games import signals
from games.models import Game, Protest
from games.page_cache import invalidate_clubs


def _scores(sender, *, club_ids, **kwargs) -> None:
    invalidate_clubs(club_ids)


def _protest(sender, instance: Protest, **kwargs) -> None:
    invalidate_clubs([instance.game.club_id])


def _player(sender, instance: Player, **kwargs) -> None:
    # a nickname is shown on every game the player sat in, a guest's games included
    clubs = set(Game.objects.filter(seats__player_id=instance.pk).values_list("club_id", flat=True).distinct())
    invalidate_clubs(clubs | {instance.club_id})


def _club(sender, instance: Club, **kwargs) -> None:
    invalidate_clubs([instance.pk])


def connect() -> None:
    signals.scores_changed.connect(_scores, dispatch_uid="games.page_cache.scores")
    signals.protest_settled.connect(_scores, dispatch_uid="games.page_cache.settled")
    for signal in (post_save, post_delete):
        signal.connect(_protest, sender=Protest, dispatch_uid=f"games.page_cache.protest.{signal is post_save}")
        signal.connect(_player, sender=Player, dispatch_uid=f"games.page_cache.player.{signal is post_save}")
    post_save.connect(_club, sender=Club, dispatch_uid="games.page_cache.club")
