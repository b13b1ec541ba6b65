"""Reads for the club pages."""

from __future__ import annotations

import difflib

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from club.models import Club, Membership, Player, PlayerClaim, nickname_key, parse_trusted_networks


def get_site_club() -> Club | None:
    """The club this site serves: the only one, or the first created when there are several."""
    return Club.objects.order_by("pk").first()


def trusted_networks() -> list:
    """The venue addresses every club's admin trusts (Club.trusted_addresses), parsed; a stored line that no
    longer parses is skipped rather than failing a login."""
    networks = []
    for text in Club.objects.exclude(trusted_addresses="").values_list("trusted_addresses", flat=True):
        for line in text.splitlines():
            try:
                networks.extend(parse_trusted_networks(line))
            except ValidationError:
                continue
    return networks


def player_search(*, club: Club, query: str = "", active_only: bool = False) -> QuerySet[Player]:
    players = Player.objects.filter(club=club)
    key = nickname_key(query)
    if key:
        players = players.filter(nickname_key__contains=key)
    if active_only:
        players = players.filter(active=True)
    return players.order_by("nickname_key")


NEAR_RATIO = 0.75  # difflib's ratio above which a new nickname looks like a typo or a short form of a known one


def near_namesakes(*, club: Club, nickname: str, limit: int = 3) -> list[Player]:
    """The club's active players whose nickname is close to `nickname` without being it («Лиса» for «Лис», «Лиза»):
    offered before a new player is created, who is then created only on a confirmation."""
    key = nickname_key(nickname)
    if not key:
        return []
    keys = dict(Player.objects.filter(club=club, active=True).values_list("nickname_key", "pk"))
    if key in keys:
        return []
    close = difflib.get_close_matches(key, list(keys), n=limit, cutoff=NEAR_RATIO)
    if len(key) >= 3:  # a short form or one more letter («Лис» / «Лиса»); not a word of a longer nickname
        close += sorted(k for k in keys if (key in k or k in key) and k not in close and len(k) >= 3
                        and abs(len(k) - len(key)) <= 2)
    ids = [keys[k] for k in close[:limit]]
    found = Player.objects.in_bulk(ids)
    return [found[pk] for pk in ids if pk in found]


def pending_claims(*, club: Club) -> QuerySet[PlayerClaim]:
    return (
        PlayerClaim.objects.filter(player__club=club, status=PlayerClaim.Status.PENDING)
        .select_related("user", "player")
        .order_by("created")
    )


def pending_claim_of(*, user, player: Player | None = None) -> PlayerClaim | None:
    if not getattr(user, "is_authenticated", False):
        return None
    claims = PlayerClaim.objects.filter(user=user, status=PlayerClaim.Status.PENDING)
    if player is not None:
        claims = claims.filter(player=player)
    return claims.select_related("player").first()


def staff_by_role(*, club: Club) -> list[tuple[str, str, list]]:
    """The club's staff grouped by role, in the order of Membership.Role: (role, label, [user, …])."""
    users: dict[str, list] = {role: [] for role in Membership.Role.values}
    for membership in (Membership.objects.filter(club=club).select_related("user")
                       .order_by("user__username")):
        users[membership.role].append(membership.user)
    return [(role, label, users[role]) for role, label in Membership.Role.choices]


def user_by_username(username: str):
    """The login with this name: exactly as typed, else the only one matching without regard to case."""
    users = get_user_model().objects.filter(username__iexact=username.strip())
    found = list(users[:10])
    exact = [u for u in found if u.username == username.strip()]
    if exact:
        return exact[0]
    return found[0] if len(found) == 1 else None


def known_name(user, club=None) -> str:
    """A person as the club knows him: his player's nickname (in `club`, when given), else his full name; "" when
    he has neither (a login is never shown as a name)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    key = f"_known_name_{getattr(club, 'pk', club)}"
    cached = user.__dict__.get(key)
    if cached is None:
        players = Player.objects.filter(user=user)
        if club is not None:
            players = players.filter(club=club)
        cached = players.order_by("pk").values_list("nickname", flat=True).first() or user.get_full_name()
        user.__dict__[key] = cached
    return cached


def person_name(user) -> str:
    """How a person is shown to others: `known_name`, else (last resort) the login."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    return known_name(user) or user.get_username()
