"""Merging two players who are one person — the copies a guest got in each club he visited before a player was a
person of the site, or a mistake later (docs/persons.md). Everything of the removed player moves to the kept one in
one transaction: his seats, participations, protests, sign-ups, claims, memberships, photo and login; ratings
moves its own rows (the lot) and recomputes the stored tables and the Elo of the games he played
(`games.signals`); the merge is recorded (club.models.PlayerMerge, and the players' history) and his card's URL
redirects to the kept one. Refused when the two sat in one game (games.people.selectors.merge_plan)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from club import permissions
from club.audit import log_action
from club.models import ClubMember, Player, PlayerClaim, PlayerMerge
from club.services import ServiceError
from games import signals
from games.models import Game, Participant, Protest, Seat
from games.page_cache import invalidate_clubs
from games.people.selectors import MergePlan, merge_plan
from games.tournaments.signups.models import Signup

_FILLED = ("real_name", "city")  # the kept player's blank fields take the removed one's


def may_merge(user, keep: Player, other: Player) -> bool:
    """An admin of both players' clubs (each one's profile is his to edit: club.permissions.can_edit_player), or
    the site's superuser."""
    return permissions.can_edit_player(user, keep) and permissions.can_edit_player(user, other)


def merge_players(*, keep: Player, other: Player, by=None, dry_run: bool = False) -> MergePlan:
    """Merge `other` into `keep` (`by` None: the site's command, with every right). Returns the plan; raises
    ServiceError with the reason when refused, PermissionDenied without the right. `dry_run`: nothing changes."""
    if by is not None and not may_merge(by, keep, other):
        raise PermissionDenied(_("Merging players needs the right to edit both: an admin of both clubs."))
    with transaction.atomic():
        locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, other.pk])}
        if len(locked) != len({keep.pk, other.pk}):
            raise ServiceError(_("Players: one of them is gone (merged or deleted meanwhile)."))
        keep, other = locked[keep.pk], locked[other.pk]
        plan = merge_plan(keep, other)
        if not plan.allowed:
            raise ServiceError(plan.refusals[0])
        if dry_run:
            return plan
        _move(keep, other, by, plan)
    return plan


def _move(keep: Player, other: Player, by, plan: MergePlan) -> None:
    games = list(Game.objects.filter(seats__player=other).values_list("pk", "tournament_id", "club_id"))
    Seat.objects.filter(player=other).update(player=keep)
    Participant.objects.filter(player=other).update(player=keep)
    Protest.objects.filter(player=other).update(player=keep)
    Signup.objects.filter(player=other).update(player=keep)
    PlayerClaim.objects.filter(player=other).update(player=keep)
    _move_memberships(keep, other)
    signals.players_merged.send(sender=Player, keep_id=keep.pk, other_id=other.pk)  # ratings' own rows (the lot)
    if games:  # the stored tables and the Elo of his games, now the kept player's (ratings.receivers)
        signals.scores_changed.send(sender=Game, game_ids=signals.ids(g for g, _, _ in games),
                                    tournament_ids=signals.ids(t for _, t, _ in games),
                                    club_ids=signals.ids(c for _, _, c in games))
        invalidate_clubs(signals.ids(c for _, _, c in games))
    PlayerMerge.objects.filter(kept=other).update(kept=keep)  # earlier merges into him now lead to the kept one
    PlayerMerge.objects.create(kept=keep, merged_id=other.pk, merged_nickname=other.nickname, by=by,
                               moved=plan.moved)
    user, photo, home = other.user_id, other.photo.name if other.photo else "", other.club_id
    for name in _FILLED:
        if not getattr(keep, name) and getattr(other, name):
            setattr(keep, name, getattr(other, name))
    keep.joined = min(keep.joined, other.joined)
    log_action(other, by=by, reason=f"merged into {keep.pk}", save=False)
    other.delete()  # its history keeps the row as it was; the derived rows of its own go with it
    if user and keep.user_id is None:
        keep.user_id = user
    if photo and not keep.photo:
        keep.photo.name = photo  # the stored file is already re-encoded (club.pictures): it is kept as it is
    if keep.club_id is None and home is not None:  # a guest copy merged with a club's member takes his home club
        keep.club_id = home
    log_action(keep, by=by, reason=f"merged {plan.other.nickname} #{plan.other.pk}"[:100])


def _move_memberships(keep: Player, other: Player) -> None:
    """Each club of the removed player: the kept one becomes its member (from the earlier date joined)."""
    kept = {m.club_id: m for m in ClubMember.objects.filter(player=keep)}
    for membership in ClubMember.objects.filter(player=other):
        mine = kept.get(membership.club_id)
        if mine is None:
            membership.player = keep
            membership.save()
        else:
            if membership.joined < mine.joined:
                mine.joined = membership.joined
                mine.save()
            membership.delete()
