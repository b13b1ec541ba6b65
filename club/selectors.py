"""Reads for the club pages."""

from __future__ import annotations

import difflib

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, QuerySet

from club.models import Club, ClubMember, Player, PlayerClaim, PlayerMerge, nickname_key, parse_trusted_networks


def get_site_club() -> Club | None:
    """The club this site serves: the only one, or the first created when there are several."""
    return Club.objects.order_by("pk").first()


# The club's time zone, kept in the cache so that a page does not ask the database for it (club.signals drops it
# when a club is saved or deleted).
def site_is_empty() -> bool:
    """No user at all yet: the site's first run (/setup/) is open."""
    return not get_user_model().objects.exists()


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


def member_players(club_or_clubs) -> QuerySet[Player]:
    """The players who belong to a club (one Club, a club id, or several): those with a ClubMember row in it —
    his home club or another. The one place that says who a club's members are."""
    if isinstance(club_or_clubs, (Club, int)):
        members = ClubMember.objects.filter(player=OuterRef("pk"), club=club_or_clubs)
        return Player.objects.filter(Exists(members))
    # Several clubs (a league's): their members' ids read once from the (club, player) index, not an EXISTS per
    # player probing it once per club (a league of 300 clubs: 9 million probes, 1.1 s of CPU on SQLite)
    return Player.objects.filter(pk__in=ClubMember.objects.filter(club__in=list(club_or_clubs)).values("player_id"))


def clubs_of(player: Player) -> list[ClubMember]:
    """The player's memberships (club and the date he joined), his home club first, then by date joined."""
    rows = list(ClubMember.objects.filter(player=player).select_related("club").order_by("joined", "pk"))
    return sorted(rows, key=lambda m: m.club_id != player.club_id)


def possible_copies(player: Player, limit: int = 10) -> list[Player]:
    """Players of his nickname elsewhere (another home club, or a guest without one) with no login: the copies a
    guest got in each club he visited before players were persons (docs/persons.md), offered to him to merge."""
    copies = Player.objects.filter(nickname_key=player.nickname_key, user__isnull=True).exclude(pk=player.pk)
    if player.club_id is not None:  # his home club's namesake is another person (a nickname is unique there)
        copies = copies.exclude(club_id=player.club_id)
    return list(copies.select_related("club").order_by("pk")[:limit])


def merged_into(pk: int) -> int | None:
    """The player a removed player `pk` was merged into (PlayerMerge), None if he was never merged."""
    return PlayerMerge.objects.filter(merged_id=pk).values_list("kept_id", flat=True).first()


def player_search(*, club: Club, query: str = "", active_only: bool = False) -> QuerySet[Player]:
    players = member_players(club)
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
