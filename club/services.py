"""Writes of the club domain. Every function checks permission itself; views only translate errors to the screen."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club import permissions
from club.audit import log_action
from club.models import NICKNAME_MAX_LENGTH, Club, Membership, Player, PlayerClaim, clean_nickname, nickname_key

User = get_user_model()

CLUB_ADMINS_GROUP = "Club admins"
# What a club admin may do in /admin/: (app_label, model) → actions.
_CLUB_ADMIN_MODEL_PERMS = {
    ("club", "player"): ("view", "add", "change", "delete"),
    ("club", "membership"): ("view", "add", "change", "delete"),
    ("club", "playerclaim"): ("view", "change"),
    ("club", "club"): ("view", "change"),
}

PLAYER_FIELDS = {"nickname", "real_name", "photo", "city", "joined", "active"}


class ServiceError(Exception):
    """A refused write, with a message fit for the user. `field` names the form field at fault, if any."""

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


def _require(allowed: bool) -> None:
    if not allowed:
        raise PermissionDenied(_("You are not allowed to do this."))


def _checked_nickname(*, club: Club | None, nickname: str, exclude_pk: int | None = None) -> str:
    """A nickname is unique among a club's home players; guests without a home club may share one."""
    nickname = clean_nickname(nickname)
    if not nickname:
        raise ServiceError(_("The nickname must not be empty."), field="nickname")
    if len(nickname) > NICKNAME_MAX_LENGTH:
        raise ServiceError(
            _("The nickname must be at most %(max)d characters long.") % {"max": NICKNAME_MAX_LENGTH},
            field="nickname",
        )
    clash = Player.objects.filter(club=club, nickname_key=nickname_key(nickname)) if club else Player.objects.none()
    if exclude_pk is not None:
        clash = clash.exclude(pk=exclude_pk)
    if clash.exists():
        raise ServiceError(_("A player with this nickname already exists in the club."), field="nickname")
    return nickname


def _save_player(player: Player, by) -> Player:
    log_action(player, by=by, save=False)  # saved below, in a savepoint
    try:
        # A savepoint, so that a lost race on the unique constraint leaves the outer transaction usable.
        with transaction.atomic():
            player.save()
    except IntegrityError as exc:
        raise ServiceError(_("A player with this nickname already exists in the club."), field="nickname") from exc
    return player


@transaction.atomic
def player_create(
    *,
    club: Club,
    by,
    nickname: str,
    real_name: str = "",
    city: str = "",
    joined: datetime.date | None = None,
    active: bool = True,
    photo: Any = None,
) -> Player:
    _require(permissions.is_club_admin(by, club))
    player = Player(
        club=club,
        nickname=_checked_nickname(club=club, nickname=nickname),
        real_name=real_name.strip(),
        city=city.strip(),
        joined=joined or timezone.localdate(),
        active=active,
    )
    if photo:
        player.photo = photo
    return _save_player(player, by)


@transaction.atomic
def player_update(*, player: Player, by, **changes: Any) -> Player:
    """Change the given fields of a player (any of nickname, real_name, photo, city, joined, active)."""
    unknown = set(changes) - PLAYER_FIELDS
    if unknown:
        raise TypeError(f"player_update got unknown fields: {sorted(unknown)}")
    player = Player.objects.select_for_update().get(pk=player.pk)
    _require(permissions.can_edit_player(by, player))
    if "nickname" in changes:
        changes["nickname"] = _checked_nickname(club=player.club, nickname=changes["nickname"], exclude_pk=player.pk)
    for field, value in changes.items():
        if isinstance(value, str) and field != "photo":
            value = value.strip()
        setattr(player, field, value)
    return _save_player(player, by)


@transaction.atomic
def claim_create(*, user, player: Player) -> PlayerClaim:
    """A logged-in user says "this player is me"; a club admin decides later."""
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied(_("Log in first."))
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.user_id is not None:
        raise ServiceError(_("This player is already linked to a login."))
    if Player.objects.filter(user=user).exists():
        raise ServiceError(_("Your login is already linked to a player."))
    if PlayerClaim.objects.filter(user=user, status=PlayerClaim.Status.PENDING).exists():
        raise ServiceError(_("You already have a claim waiting for a decision."))
    return PlayerClaim.objects.create(user=user, player=player)


@transaction.atomic
def claim_decide(*, claim: PlayerClaim, by, approve: bool, note: str = "") -> PlayerClaim:
    claim = PlayerClaim.objects.select_for_update(of=("self",)).select_related("player__club", "user").get(pk=claim.pk)
    _require(permissions.can_edit_player(by, claim.player))
    if claim.status != PlayerClaim.Status.PENDING:
        raise ServiceError(_("This claim has already been decided."))
    if approve:
        player = Player.objects.select_for_update().get(pk=claim.player_id)
        if player.user_id is not None:
            raise ServiceError(_("This player is already linked to a login."))
        if Player.objects.filter(user=claim.user).exists():
            raise ServiceError(_("This login is already linked to a player."))
        player.user = claim.user
        _save_player(player, by)
    claim.status = PlayerClaim.Status.APPROVED if approve else PlayerClaim.Status.REFUSED
    claim.decided_by = by
    claim.decided_at = timezone.now()
    claim.note = note.strip()
    claim.save()
    return claim


@transaction.atomic
def player_create_login(*, player: Player, by, username: str, password: str):
    """A club admin creates the login of a player directly and links it."""
    player = Player.objects.select_for_update(of=("self",)).select_related("club").get(pk=player.pk)
    _require(permissions.can_edit_player(by, player))
    if player.user_id is not None:
        raise ServiceError(_("This player is already linked to a login."))
    username = username.strip()
    if not username:
        raise ServiceError(_("Enter a login name."), field="username")
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError(_("This login name is taken."), field="username")
    user = User(username=username)
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise ServiceError(" ".join(exc.messages), field="password") from exc
    user.set_password(password)
    user.save()
    player.user = user
    _save_player(player, by)
    # The player is no longer up for grabs: close any claims on it.
    PlayerClaim.objects.filter(player=player, status=PlayerClaim.Status.PENDING).update(
        status=PlayerClaim.Status.REFUSED,
        decided_by=by,
        decided_at=timezone.now(),
        note=_("The club created a login for this player."),
    )
    return user


@transaction.atomic
def membership_set(*, club: Club, by, user, role: str) -> Membership:
    """Give the user a staff role in the club (idempotent)."""
    _require(permissions.is_club_admin(by, club))
    if role not in Membership.Role.values:
        raise ServiceError(_("Unknown role."), field="role")
    membership, _created = Membership.objects.get_or_create(club=club, user=user, role=role)
    permissions.forget_roles(user)
    return membership


@transaction.atomic
def membership_remove(*, club: Club, by, user, role: str) -> None:
    """Take a staff role away. The club's last admin role is never removed: nobody would be left to give it back."""
    _require(permissions.is_club_admin(by, club))
    if role == Membership.Role.ADMIN:
        Club.objects.select_for_update().get(pk=club.pk)  # two admins removing each other: one waits, then recounts
        admins = Membership.objects.filter(club=club, role=Membership.Role.ADMIN)
        if admins.filter(user=user).exists() and not admins.exclude(user=user).exists():
            if user == by:
                raise ServiceError(_("You are the club's last admin: give the admin role to someone else first."))
            raise ServiceError(_("This is the club's last admin: give the admin role to someone else first."))
    for membership in Membership.objects.filter(club=club, user=user, role=role):
        membership.delete()
    permissions.forget_roles(user)
    permissions.forget_roles(by)  # the same person, maybe as another object (request.user): he may have stepped down


def club_admins_group() -> Group:
    """The group that carries the /admin/ model permissions of club admins, created on demand."""
    group, _created = Group.objects.get_or_create(name=CLUB_ADMINS_GROUP)
    wanted: list[Permission] = []
    for (app_label, model), actions in _CLUB_ADMIN_MODEL_PERMS.items():
        codenames = [f"{action}_{model}" for action in actions]
        wanted += Permission.objects.filter(content_type__app_label=app_label, codename__in=codenames)
    group.permissions.add(*wanted)
    return group


def sync_admin_access(user) -> None:
    """Make /admin/ access follow the admin memberships: grant with the first, revoke with the last.

    Called from the Membership signals, so roles edited in /admin/ itself behave the same as through services.
    """
    is_admin_somewhere = Membership.objects.filter(user=user, role=Membership.Role.ADMIN).exists()
    group = club_admins_group()
    if is_admin_somewhere:
        user.groups.add(group)
        if not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
    else:
        user.groups.remove(group)
        if user.is_staff and not user.is_superuser:
            user.is_staff = False
            user.save(update_fields=["is_staff"])
    # Django caches permissions on the user object.
    for cache in ("_perm_cache", "_user_perm_cache", "_group_perm_cache"):
        user.__dict__.pop(cache, None)
