"""The card's games everywhere: every counted game of the player at any club of the site (one person, one card),
newest first, each saying where it was played (club, tournament or club night) and how his one Elo moved;
`club` filters them. Read from PlayerGame and EloChange, which hold only the games that count
(games.visibility.counting_games: a game in play, a hidden round are in neither), so the list keeps every secret the
rest of the card keeps."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.core.paginator import Paginator

from club.models import Club, Player
from club.selectors import clubs_of
from games.models import Tournament
from ratings.models import EloChange, PlayerGame

PER_PAGE = 30


@dataclass
class GameAnywhere:
    game_id: int
    date: dt.date
    club: str
    tournament: str  # "" for a club night's game
    role: str
    won: bool
    elo_delta: float | None


@dataclass
class ClubGames:
    club_id: int
    name: str
    games: int
    member_since: dt.date | None  # None: he played there as a guest


@dataclass
class Everywhere:
    clubs: list[ClubGames]
    rows: list[GameAnywhere]
    page: object  # the Paginator's page
    club_id: int | None  # the filter, None for every club


def games_everywhere(player: Player, *, club_id: int | None = None, page: int = 1) -> Everywhere:
    games = PlayerGame.objects.filter(player=player)
    counts: dict[int, int] = {}
    for cid in games.values_list("club_id", flat=True):
        counts[cid] = counts.get(cid, 0) + 1
    members = {m.club_id: m for m in clubs_of(player)}
    names = dict(Club.objects.filter(pk__in=set(counts) | set(members)).values_list("pk", "name"))
    clubs = [ClubGames(cid, names.get(cid, ""), counts.get(cid, 0),
                       members[cid].joined if cid in members else None)
             for cid in sorted(set(counts) | set(members), key=lambda c: (c not in members, names.get(c, "")))]
    if club_id is not None:
        games = games.filter(club_id=club_id)
    shown = Paginator(games.order_by("-date", "-game_id").values_list(
        "game_id", "date", "club_id", "tournament_id", "role", "won"), PER_PAGE).get_page(page)
    rows = list(shown.object_list)
    tournaments = dict(Tournament.objects.filter(pk__in={r[3] for r in rows if r[3]}).values_list("pk", "name"))
    elo = dict(EloChange.objects.filter(player=player, game_id__in=[r[0] for r in rows])
               .values_list("game_id", "delta"))
    return Everywhere(clubs, [GameAnywhere(g, d, names.get(c, ""), tournaments.get(t, "") if t else "", role, won,
                                           elo.get(g)) for g, d, c, t, role, won in rows], shown, club_id)
