"""Reads of the player card (`/players/<id>/`): head, roles, recent form, chart, partners and opponents, seats.

Everything is read from the aggregates `ratings.standings.services` stores (PlayerStats, PlayerGame, RatingPoint, EloChange,
EloRating), which hold only the games that count (`games.visibility.counting_games`: a hidden round is in none
of them). The card costs a fixed number of queries whatever the number of games: the chart reads only its sample
(`ratings.card.sampling.sample`), the form the last ten games, and partners, opponents and seats are grouped in the
database.

The history (the chart), the partners, opponents and seats, and the page of games are the card's `SECTIONS`: the
page sends them after its first part (`ratings.card.views.card_section`), since they cost most of the card and lie
below its first screen.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from django.db.models import Count, F, Max, OuterRef, Q, Subquery
from django.utils.translation import gettext

from club.models import Player
from club.reads import CompiledRead, planned_each_time
from games.models import Game
from ratings.card.chart import CardChart, ChartGame, card_chart
from ratings.card.sampling import sample
from ratings.models import EloChange, EloRating, PlayerGame, PlayerStats, RatingPoint, RatingScope
from ratings.standings.selectors import GAMES_PER_PAGE, RoleLine, player_tournaments, role_lines
from ratings.statistics.registry import Figure, card_figures

FORM_GAMES = 10
CHART_SAMPLES = 150  # at most one point per two units of the card chart's plot width (ratings.card.chart)
CO_PLAYERS = 5
CO_PLAYER_GAMES = 200  # partners and opponents are counted over the player's latest games of the scope
SEATS = range(1, 11)
SECTIONS = ("history", "partners", "games")  # filled by `fill_sections`; the page loads them when in view
RED_ROLES = ("К", "Ш")  # the red team: citizens and the sheriff (the rule books' teams)
ROLE_KEYS = {"К": "citizen", "Ч": "mafia", "Ш": "sheriff", "Д": "don"}  # the CSS class of a role's colour


@dataclass
class FormGame:
    game_id: int
    number: int | None
    date: object
    role: str
    won: bool
    tournament_name: str | None
    elo_delta: float | None

    @property
    def role_key(self) -> str:
        return ROLE_KEYS.get(self.role, "unknown")


@dataclass
class CoPlayer:
    player_id: int
    nickname: str
    games: int
    wins: int  # the card's player's wins in those games

    @property
    def win_rate(self) -> float:
        return 100 * self.wins / self.games if self.games else 0.0


@dataclass
class SeatLine:
    seat: int
    games: int
    wins: int

    @property
    def win_rate(self) -> float | None:
        return 100 * self.wins / self.games if self.games else None


@dataclass
class Card:
    player: Player
    scope: RatingScope | None
    stats: PlayerStats | None
    elo: float | None = None
    elo_change: float | None = None  # over the last `FORM_GAMES` counted games
    roles: list[RoleLine] = field(default_factory=list)
    form: list[FormGame] = field(default_factory=list)
    chart: CardChart | None = None
    partners: list[CoPlayer] = field(default_factory=list)
    opponents: list[CoPlayer] = field(default_factory=list)
    co_players_over: int | None = None  # partners and opponents counted over his latest games only: how many
    seats: list[SeatLine] = field(default_factory=list)
    tournaments: list[tuple] = field(default_factory=list)
    games: list[dict] = field(default_factory=list)
    page: int = 1
    pages: int = 1

    @property
    def win_rate(self) -> float | None:
        s = self.stats
        return 100 * s.wins / s.games if s and s.games else None

    @property
    def figures(self) -> list[Figure]:
        """The registry's statistics the card shows as they are (ratings.statistics.registry)."""
        return card_figures(self.stats)

    @property
    def fouls_per_game(self) -> float | None:
        s = self.stats
        return s.fouls / s.games if s and s.games else None

    @property
    def extras_per_game(self):
        s = self.stats
        return s.extras / s.games if s and s.games else None

    @property
    def blacks_per_best_move(self) -> float | None:
        s = self.stats
        return s.best_move_blacks / s.best_moves if s and s.best_moves else None


FORM_FIELDS = ("game_id", "game__number", "date", "role", "won", "game__tournament__name", "elo_delta")


def _form_query(player_id: int, elo_player_id: int):
    delta = EloChange.objects.filter(game_id=OuterRef("game_id"), player_id=elo_player_id).values("delta")[:1]
    return (PlayerGame.objects.filter(player_id=player_id).order_by("-date", "-game_id")
            .annotate(elo_delta=Subquery(delta)).values_list(*FORM_FIELDS)[:FORM_GAMES])


_FORM = CompiledRead(PlayerGame, _form_query, fields=FORM_FIELDS)  # compiled once (club.reads.CompiledRead)


def recent_form(player) -> list[FormGame]:
    """The player's last counted games (FORM_GAMES), newest first, with the Elo each moved him by (one query)."""
    return [FormGame(*row) for row in _FORM.rows(player.pk, player.pk)]


def _chart(player, scope: RatingScope) -> CardChart | None:
    rows = RatingPoint.objects.filter(scope=scope, player=player)
    last = rows.aggregate(last=Max("n"))["last"]  # the (scope, player, n) index
    total = 0 if last is None else last + 1
    positions = sample(total, CHART_SAMPLES)
    if len(positions) < total:
        rows = rows.filter(n__in=positions)
    elo_after = EloChange.objects.filter(game_id=OuterRef("game_id"), player_id=player.pk).values("after")[:1]
    # the game's number looked up per point, not joined: PostgreSQL guessed a thousand points for the sample's
    # `n IN (…)` and hashed the whole games table (25 ms at 100,000 games instead of 1)
    number = Game.objects.filter(pk=OuterRef("game_id")).values("number")[:1]
    read = (rows.order_by("n").annotate(elo=Subquery(elo_after), number=Subquery(number))
            .values_list("n", "game_id", "number", "date", "cumulative", "rank", "elo"))
    with planned_each_time():  # planned for this player's own count of points (club.reads.planned_each_time)
        points = list(read)
    chart = card_chart([ChartGame(*row) for row in points], total=total)
    if chart is not None:
        chart.table = _named(chart.table)
    return chart


def _named(games: list[ChartGame]) -> list[ChartGame]:
    """The history table's rows with their event and table («12 мая 2026 г., Вечер клуба, стол 1, игра 3»): one query
    for its few rows."""
    evening = gettext("Club evening")
    found = {pk: (tournament or evening_name or (evening if evening_id else ""), table) for
             pk, tournament, evening_id, evening_name, table in Game.objects.filter(
                 pk__in=[g.game_id for g in games]).values_list(
                 "pk", "tournament__name", "evening_id", "evening__name", "table")}
    named = []
    for g in games:
        event, table = found.get(g.game_id, ("", None))
        named.append(dataclasses.replace(g, event=event, table=table))
    return named


def _his_rows(player, scope: RatingScope):
    """His PlayerGame rows of the scope, newest first (the (player, date, game) index)."""
    return PlayerGame.objects.filter(scope.games_q(), player=player).order_by("-date", "-game_id")


def _his_games(player, scope: RatingScope):
    """His games of the scope, newest first, as a page of games shows them."""
    delta = EloChange.objects.filter(game_id=OuterRef("game_id"), player_id=player.pk).values("delta")[:1]
    return _his_rows(player, scope).values("date", "game_id", "role", "won", "total", "seat",
                                           number=F("game__number"), tournament_name=F("game__tournament__name"),
                                           evening_id=F("game__evening_id"), evening_name=F("game__evening__name"),
                                           elo_delta=Subquery(delta))


def _latest_games(player, scope: RatingScope) -> list[dict]:
    """His latest `CO_PLAYER_GAMES` + 1 games of the scope, with what the partners, opponents and seats read (one
    query without joins; the one past the limit tells that older games exist)."""
    return list(_his_rows(player, scope).values("game_id", "role", "won", "seat")[:CO_PLAYER_GAMES + 1])


def _co_players(player, latest: list[dict]) -> tuple[list[CoPlayer], list[CoPlayer]]:
    """Who played with him (the same team) and against him most in `latest` (his latest games of the scope, at most
    `CO_PLAYER_GAMES`), with his win rate there: one query of at most nine rows a game, whatever the number of his
    games (a regular's season of two thousand games was a self-join of twenty thousand rows)."""
    mine = {g["game_id"]: (g["role"] in RED_ROLES, bool(g["won"])) for g in latest}
    lines: dict[int, list] = {}  # player id → [nickname, with games, with wins, against games, against wins]
    for game_id, other_id, nickname, role in (
            PlayerGame.objects.filter(game_id__in=list(mine)).exclude(player_id=player.pk)
            .values_list("game_id", "player_id", "player__nickname", "role")):
        red, won = mine[game_id]
        line = lines.get(other_id) or lines.setdefault(other_id, [nickname, 0, 0, 0, 0])
        at = 1 if (role in RED_ROLES) == red else 3
        line[at] += 1
        line[at + 1] += won
    partners = [CoPlayer(pk, n, wg, ww) for pk, (n, wg, ww, _ag, _aw) in lines.items() if wg]
    opponents = [CoPlayer(pk, n, ag, aw) for pk, (n, _wg, _ww, ag, aw) in lines.items() if ag]

    def top(lines: list[CoPlayer]) -> list[CoPlayer]:
        return sorted(lines, key=lambda c: (-c.games, -c.win_rate, c.nickname))[:CO_PLAYERS]

    return top(partners), top(opponents)


def _seats(player, scope: RatingScope, latest: list[dict]) -> list[SeatLine]:
    """Games and wins by seat: counted from `latest` when it holds all his games of the scope, else in the
    database."""
    if len(latest) <= CO_PLAYER_GAMES:
        by_seat: dict[int, dict] = {}
        for g in latest:
            line = by_seat.setdefault(g["seat"], {"games": 0, "wins": 0})
            line["games"] += 1
            line["wins"] += bool(g["won"])
    else:
        # counted in the player's covering index, without a table row (ratings.models.PlayerGame)
        by_seat = {row["seat"]: row for row in _his_rows(player, scope).values("seat").order_by()
                   .annotate(games=Count("seat"), wins=Count("seat", filter=Q(won=True)))}
    return [SeatLine(seat, by_seat.get(seat, {}).get("games", 0), by_seat.get(seat, {}).get("wins", 0))
            for seat in SEATS]


def _games_page(player, scope: RatingScope, stats: PlayerStats | None, page: int) -> tuple[list[dict], int, int]:
    """One page of his games of the scope, newest first."""
    pages = max(1, -(-(stats.games if stats else 0) // GAMES_PER_PAGE))
    page = min(max(1, page), pages)
    games = list(_his_games(player, scope)[(page - 1) * GAMES_PER_PAGE: page * GAMES_PER_PAGE])
    return games, page, pages


def fill_sections(card: Card, sections=SECTIONS) -> Card:
    """Read the named `SECTIONS` of the card of a scope into it: "history" the chart, "partners" the partners,
    opponents and seats, "games" the page `card.page` of his games."""
    player, scope = card.player, card.scope
    if scope is None:  # no season yet: nothing to read
        return card
    if "games" in sections:
        if card.stats is None:
            card.stats = PlayerStats.objects.filter(scope=scope, player=player).first()
        card.games, card.page, card.pages = _games_page(player, scope, card.stats, card.page)
    if "history" in sections:
        card.chart = _chart(player, scope)
    if "partners" in sections:
        latest = _latest_games(player, scope)
        card.partners, card.opponents = _co_players(player, latest[:CO_PLAYER_GAMES])
        card.co_players_over = CO_PLAYER_GAMES if len(latest) > CO_PLAYER_GAMES else None
        card.seats = _seats(player, scope, latest)
    return card


def card_section(player, scope: RatingScope, name: str, *, page: int = 1) -> Card:
    """A card holding only the section `name` of `SECTIONS` (what the page loads after its first part)."""
    return fill_sections(Card(player=player, scope=scope, stats=None, page=page), (name,))


def player_card(player, scope: RatingScope | None, *, page: int = 1, sections=SECTIONS) -> Card:
    """The card of `player` for the shown scope (a season or a tournament), with the named `SECTIONS`; the form and
    the Elo are the club's."""
    form = recent_form(player)
    try:
        current = player.elo.elo  # read with the player where the view asked for it (select_related("elo"))
    except EloRating.DoesNotExist:
        current = None
    deltas = [g.elo_delta for g in form if g.elo_delta is not None]
    card = Card(player=player, scope=scope, stats=None, elo=current, elo_change=sum(deltas) if deltas else None,
                form=form, tournaments=player_tournaments(player))
    if scope is None:
        return card
    card.stats = PlayerStats.objects.filter(scope=scope, player=player).first()
    card.roles = role_lines(card.stats)
    card.page = page
    return fill_sections(card, sections)

