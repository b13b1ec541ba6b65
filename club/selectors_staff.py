"""Reads of the staff page (/staff/): who holds which role, named once, and the logins an admin may pick by name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db.models import Q

from club.models import Club, Membership, Player, nickname_key
from club.selectors import known_name

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django_stubs_ext import StrOrPromise

LOGIN_SEARCH_MIN = 2  # characters typed before logins are looked up
LOGIN_SEARCH_LIMIT = 10


def name_with_login(user, club: Club | None = None) -> str:
    """A person named once: «Ольга (olga)» when the club knows him by another name than his login, else «olga»."""
    login = user.get_username()
    name = known_name(user, club)
    if not name or nickname_key(name) == nickname_key(login):
        return login
    return f"{name} ({login})"


@dataclass
class StaffMember:
    user: User
    name: str  # name_with_login
    site_admin: bool = False  # a superuser of the site: an admin of every club without a role to take away


def staff_by_role(*, club: Club) -> list[tuple[str, StrOrPromise, list[StaffMember]]]:
    """The club's staff grouped by role, in the order of Membership.Role: (role, label, [member, …]); the site's
    active superusers without the club's admin role are listed among the admins as the site's administrators."""
    members: dict[str, list[StaffMember]] = {role: [] for role in Membership.Role.values}
    for membership in (Membership.objects.filter(club=club).select_related("user").order_by("user__username")):
        members[membership.role].append(StaffMember(membership.user, name_with_login(membership.user, club)))
    admins = {m.user.pk for m in members[Membership.Role.ADMIN]}
    for user in (get_user_model().objects.filter(is_superuser=True, is_active=True).exclude(pk__in=admins)
                 .order_by("username")):
        members[Membership.Role.ADMIN].append(StaffMember(user, name_with_login(user, club), site_admin=True))
    return [(role, label, members[role]) for role, label in Membership.Role.choices]


@dataclass
class LoginChoice:
    """A login as the admin picks it: its player's nickname and club, never the login name alone."""

    user: User
    login: str
    nickname: str
    club: str


def login_search(query: str) -> list[LoginChoice]:
    """Active logins whose login name, full name or player's nickname contains `query` (case ignored), at most
    LOGIN_SEARCH_LIMIT; nothing for fewer than LOGIN_SEARCH_MIN characters."""
    query = (query or "").strip()
    if len(query) < LOGIN_SEARCH_MIN:
        return []
    key = nickname_key(query)
    users = (get_user_model().objects.filter(is_active=True)
             .filter(Q(username__icontains=query) | Q(first_name__icontains=query) | Q(last_name__icontains=query)
                     | Q(player__nickname_key__contains=key))
             .distinct().order_by("username")[:LOGIN_SEARCH_LIMIT])
    players = {p.user_id: p for p in Player.objects.filter(user__in=users).select_related("club")}
    choices = []
    for user in users:
        player = players.get(user.pk)
        choices.append(LoginChoice(user, user.get_username(), player.nickname if player else user.get_full_name(),
                                   player.club.name if player and player.club else ""))
    return choices
