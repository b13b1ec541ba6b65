"""Reads of the overlays: the token, the game at a table, the board as the spectator (or the director) sees it,
and the lower thirds. Secrecy is never re-derived here: the public board is `games.protocol.selectors.protocol_view` with
`can_see_secrets` of an anonymous visitor, hidden rounds follow `games.visibility` (docs/broadcast.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q, QuerySet

from broadcast.models import OverlayToken
from club.models import Player
from games.live.selectors import day_speech, spectator_days
from games.models import Game
from games.permissions import can_see_secrets
from games.protocol.selectors import protocol_of, protocol_view, with_protocol
from games.rules.consequences import speech_seconds
from games.rules.protocol import Tally
from ratings.models import EloRating, PlayerStats
from ratings.standings.ranking import StandingRow
from ratings.standings.selectors import club_seasons, default_season, scope_rows, season_scope, tournament_scope

STANDINGS_ROWS = 10


def live_token(token: str) -> OverlayToken | None:
    """The token's row when it exists and is not revoked (one query on the unique index, no ordering)."""
    if not token or len(token) > 64:
        return None
    rows = list(OverlayToken.objects.filter(token=token, revoked_at__isnull=True).order_by()[:1])
    return rows[0] if rows else None


def event_games(tok: OverlayToken) -> QuerySet[Game]:
    if tok.tournament_id:
        return Game.objects.filter(tournament_id=tok.tournament_id)
    return Game.objects.filter(evening_id=tok.evening_id)


def table_games(tok: OverlayToken, table: int) -> QuerySet[Game]:
    """The event's games at `table` (a game without a table number sits at table 1, as a club evening's single
    table), annulled ones left out."""
    where = Q(table=table) | Q(table__isnull=True) if table == 1 else Q(table=table)
    return event_games(tok).filter(where).exclude(status=Game.Status.ANNULLED)


def table_head(tok: OverlayToken, table: int) -> tuple[int, int, bool] | None:
    """(game id, version, results hidden) of the game shown at `table` — the one being played, else the latest:
    all an unchanged poll reads. A table holds a few games per event, so they are picked here, not in SQL (an
    ordering expression costs the poll more than the rows do)."""
    rows = list(table_games(tok, table).order_by().values_list("pk", "version", "results_hidden", "status",
                                                               "number"))
    if not rows:
        return None
    pk, version, hidden, _status, _number = max(rows, key=lambda r: (r[3] == Game.Status.IN_PROGRESS, r[4]))
    return pk, version, hidden


def board_key(tok: OverlayToken, head: tuple[int, int, bool] | None, table: int, language: str) -> str:
    """The cache key of the rendered board: the token's kind, the table, the game and its version (bumped by every
    write), the hidden flag and the language. Internal only: a version moves on secret taps too, so nothing a
    client sees is made from it (the board's ETag is the hash of its HTML, broadcast.views)."""
    if head is None:
        return f"broadcast:board:{tok.kind}:{table}:none:{language}"
    pk, version, hidden = head
    return f"broadcast:board:{tok.kind}:{table}:{pk}.{version}{'h' if hidden else ''}:{language}"


@dataclass
class OverlaySeat:
    number: int
    nickname: str
    initials: str
    photo_url: str
    role: str | None  # None on the public overlay while the game is played
    fouls: int
    left: object | None  # games.rules.flow.Departure
    speaking: bool = False
    nominated: bool = False
    votes: int | None = None  # votes in the day's latest voting round, when held
    total: Decimal | None = None


@dataclass
class Board:
    game: Game | None
    director: bool
    hidden: bool = False
    seats: list[OverlaySeat] = field(default_factory=list)
    phase_kind: str = ""
    phase_index: int = 0
    speaker: int | None = None
    speech_seconds: int = 0
    nominations: list = field(default_factory=list)
    nights: list = field(default_factory=list)  # NightView rows (checks only when the view shows secrets)
    result: str = ""
    show_secrets: bool = False


def initials(nickname: str) -> str:
    words = [w for w in nickname.replace("-", " ").split() if w]
    return "".join(w[0] for w in words[:2]).upper() or "?"


def _photo_url(player: Player) -> str:
    photo = getattr(player, "photo", None)
    try:
        return photo.url if photo else ""
    except ValueError:  # a photo field without a stored file
        return ""


def _latest_votes(day) -> list[Tally]:
    if day is None:
        return []
    if day.revotes:
        return day.revotes[-1]
    return day.votes or []


def table_board(tok: OverlayToken, head: tuple[int, int, bool] | None) -> Board:
    """The board of the game `head` names, as the token's kind may see it."""
    director = tok.is_director
    if head is None:
        return Board(game=None, director=director)
    game = with_protocol(Game.objects.filter(pk=head[0]), scores=True).select_related("club", "evening").get()
    if game.results_hidden:  # games.visibility: a hidden round's game is the judge staff's only
        return Board(game=game, director=director, hidden=True)
    show_secrets = director or can_see_secrets(AnonymousUser(), game)
    view = protocol_view(game, show_secrets=show_secrets)
    protocol = protocol_of(game)
    kind, index = (game.phase[0], int(game.phase[1:])) if game.phase else ("", 0)
    board = Board(game=game, director=director, phase_kind=kind, phase_index=index, nights=view.nights,
                  result=view.result, show_secrets=show_secrets)
    day = None
    if kind == "D" and game.status == Game.Status.IN_PROGRESS:
        days = spectator_days(game, protocol)
        day = days[index - 1] if index <= len(days) else None
        ruleset = game.ruleset.ruleset()
        speech = day_speech(game, protocol, ruleset, index)
        board.speaker = speech.current
        # the rule set's speech lengths (000 4.3.1 a minute; S7.8 the short one after the 3rd foul at 3–4 players)
        board.speech_seconds = speech_seconds(ruleset, short=speech.current in speech.short)
        board.nominations = [n for n in (day.nominations if day else []) if not getattr(n, "withdrawn", False)]
    nominees = {n.nominee for n in board.nominations}
    votes = {t.seat: t.votes for t in _latest_votes(day)}
    players = {s.player_id: s.player for s in game.seats.all()}
    for s in view.seats:
        player = players[s.player_id]
        board.seats.append(OverlaySeat(
            number=s.number, nickname=s.nickname, initials=initials(s.nickname), photo_url=_photo_url(player),
            role=s.role, fouls=s.fouls, left=s.left, speaking=s.number == board.speaker,
            nominated=s.number in nominees, votes=votes.get(s.number), total=s.total))
    return board


# ---------------------------------------------------------------------------------------------- lower thirds
@dataclass
class Standings:
    title: str
    rows: list[StandingRow]


def standings(tok: OverlayToken) -> Standings:
    """The tournament's table (a club evening: the current season's), from the stored rows, which count no hidden
    game (games.visibility.counting_games)."""
    if tok.tournament is not None:
        scope = tournament_scope(tok.tournament)
        return Standings(tok.tournament.name, scope_rows(scope)[:STANDINGS_ROWS] if scope else [])
    season = default_season(club_seasons(tok.club))
    scope = season_scope(season) if season else None
    return Standings(season.name if season else "", scope_rows(scope)[:STANDINGS_ROWS] if scope else [])


def result_board(tok: OverlayToken, table: int) -> Board | None:
    """The latest counted, not hidden game at `table`, with its result and points (None before one ends)."""
    head = (table_games(tok, table).filter(status__in=(Game.Status.FINISHED, Game.Status.SIGNED),
                                           results_hidden=False).exclude(result="").order_by("-number")
            .values_list("pk", "version", "results_hidden").first())
    if head is None:
        return None
    board = table_board(tok, head)
    board.seats.sort(key=lambda s: (-(s.total or 0), s.number))
    return board


@dataclass
class PlayerCard:
    player: Player
    initials: str
    photo_url: str
    scope_name: str
    games: int
    total: object
    rank: int | None
    elo: float | None


def player_card(tok: OverlayToken, player_id: int) -> PlayerCard | None:
    """A player of the token's club: games and points in the event's standings (a club evening: the season's) and
    the club Elo; None for a player of another club."""
    player = Player.objects.filter(pk=player_id, club_id=tok.club_id).first()
    if player is None:
        return None
    if tok.tournament is not None:
        scope, name = tournament_scope(tok.tournament), tok.tournament.name
    else:
        season = default_season(club_seasons(tok.club))
        scope, name = (season_scope(season), season.name) if season else (None, "")
    stats = PlayerStats.objects.filter(scope=scope, player=player).first() if scope else None
    elo = EloRating.objects.filter(player=player).values_list("elo", flat=True).first()  # his one Elo
    return PlayerCard(player=player, initials=initials(player.nickname), photo_url=_photo_url(player),
                      scope_name=name, games=stats.games if stats else 0, total=stats.total if stats else 0,
                      rank=stats.rank if stats else None, elo=elo)


def event_tokens(event) -> list[OverlayToken]:
    return list(event.overlay_tokens.select_related("created_by").order_by("revoked_at", "-created", "-id"))


def event_tables(event) -> list[int]:
    """The table numbers of the event's games (at least table 1): one overlay URL each."""
    tables = {t or 1 for t in event.games.values_list("table", flat=True)}
    return sorted(tables | {1})
