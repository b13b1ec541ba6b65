"""Finding a person of the site from what an organiser types: «Лиса» (a member of the host club) or «Лиса (Рассвет)»
(a member of the club named in brackets), and the search by nickname over every club (each found player shown with
his home club and city, to tell namesakes apart). The writes that add the person are club.services_people."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db.models import QuerySet

from club.models import Club, Player, clean_nickname, nickname_key
from club.selectors import member_players

_CLUB_SUFFIX = re.compile(r"^(?P<nick>.*?\S)\s*\((?P<club>[^()]*\S[^()]*)\)$")
SEARCH_LIMIT = 20


@dataclass
class Entry:
    """One typed person: the nickname, the club named in brackets (if any) and whom the site found."""

    nickname: str
    club_name: str = ""  # as typed in brackets, "" when none
    club: Club | None = None  # the club of that name, when there is one
    player: Player | None = None  # the person found: a member of the named club, or else of the host club

    @property
    def guest(self) -> bool:
        """A club was named but has no member of this nickname: a new person without a membership."""
        return self.player is None and bool(self.club_name)


def split_club(text: str) -> tuple[str, str]:
    """«Лиса (Рассвет)» → ("Лиса", "Рассвет"); «Лиса» → ("Лиса", "")."""
    text = clean_nickname(text)
    found = _CLUB_SUFFIX.match(text)
    if not found:
        return text, ""
    return clean_nickname(found["nick"]), clean_nickname(found["club"])


def club_named(name: str) -> Club | None:
    """The club of this name, case and spacing ignored (compared here: SQLite's iexact folds only Latin letters;
    a site has a few clubs)."""
    key = nickname_key(name)
    if not key:
        return None
    exact = Club.objects.filter(name=clean_nickname(name)).first()
    return exact or next((c for c in Club.objects.order_by("pk") if nickname_key(c.name) == key), None)


def find_entry(text: str, host: Club) -> Entry:
    """The person a typed line means: with a club in brackets, that club's member of the nickname; without, the
    host club's member. Nobody found: `player` is None (a new member of the host club, or a guest)."""
    nickname, club_name = split_club(text)
    key = nickname_key(nickname)
    if club_name:
        club = club_named(club_name)
        player = member_players(club).filter(nickname_key=key).order_by("pk").first() if club else None
        return Entry(nickname, club_name, club, player)
    player = member_players(host).filter(nickname_key=key).order_by("pk").first() if key else None
    return Entry(nickname, "", None, player)


@dataclass
class Found:
    player: Player
    club: str  # the home club's name, "" for a guest without one
    city: str  # the player's city, else his home club's


def search_people(query: str, *, exclude: QuerySet | None = None, limit: int = SEARCH_LIMIT) -> list[Found]:
    """Players of every club whose nickname contains the query (case and spacing ignored), exact matches first,
    each with his home club and city."""
    key = nickname_key(split_club(query)[0])
    if not key:
        return []
    players = Player.objects.filter(nickname_key__contains=key, active=True).select_related("club")
    if exclude is not None:
        players = players.exclude(pk__in=exclude)
    ranked = sorted(players.order_by("nickname_key", "pk")[:limit * 5],
                    key=lambda p: (p.nickname_key != key, p.nickname_key, p.pk))[:limit]
    return [Found(p, p.club.name if p.club else "", p.city or (p.club.city if p.club else "")) for p in ranked]
