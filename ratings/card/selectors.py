"""Reads of the player card (`/players/<id>/`): head, roles, recent form, chart, partners and opponents, seats.

Everything is read from the aggregates `ratings.standings.services` stores (PlayerStats, PlayerGame, RatingPoint, EloChange,
EloRating), which hold only the games that count (`games.visibility.counting_games`: a hidden round is in none
of them). The card costs a fixed number of queries whatever the number of games: the chart reads only its sample
(`ratings.card.sampling.sample`), the form the last ten games, and partners, opponents and seats are grouped in the
database.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import BooleanField, Case, Count, F, Max, OuterRef, Q, Subquery, Value, When

from ratings.card.chart import CardChart, ChartGame, card_chart
from ratings.card.sampling import sample
from ratings.models import EloChange, EloRating, PlayerGame, PlayerStats, RatingPoint, RatingScope
from ratings.standings.selectors import GAMES_PER_PAGE, RoleLine, player_tournaments, role_lines
from ratings.statistics.registry import Figure, card_figures

FORM_GAMES = 10
CHART_SAMPLES = 150  # at most one point per two units of the card chart's plot width (ratings.card.chart)
CO_PLAYERS = 5
SEATS = range(1, 11)
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
    player: object
    scope: RatingScope | None
    stats: PlayerStats | None
    elo: float | None = None
    elo_change: float | None = None  # over the last `FORM_GAMES` counted games
    roles: list[RoleLine] = field(default_factory=list)
    form: list[FormGame] = field(default_factory=list)
    chart: CardChart | None = None
    partners: list[CoPlayer] = field(default_factory=list)
    opponents: list[CoPlayer] = field(default_factory=list)
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


def recent_form(player, limit: int = FORM_GAMES) -> list[FormGame]:
    """The player's last counted games, newest first, with the Elo each moved him by (one query)."""
    delta = EloChange.objects.filter(game_id=OuterRef("game_id"), player_id=player.pk).values("delta")[:1]
    rows = (PlayerGame.objects.filter(player=player).order_by("-date", "-game_id")
            .annotate(elo_delta=Subquery(delta))
            .values_list("game_id", "game__number", "date", "role", "won", "game__tournament__name", "elo_delta")
            [:limit])
    return [FormGame(*row) for row in rows]


def _chart(player, scope: RatingScope) -> CardChart | None:
    rows = RatingPoint.objects.filter(scope=scope, player=player)
    last = rows.aggregate(last=Max("n"))["last"]  # the (scope, player, n) index
    total = 0 if last is None else last + 1
    positions = sample(total, CHART_SAMPLES)
    if len(positions) < total:
        rows = rows.filter(n__in=positions)
    elo_after = EloChange.objects.filter(game_id=OuterRef("game_id"), player_id=player.pk).values("after")[:1]
    read = (rows.order_by("n").annotate(elo=Subquery(elo_after))
            .values_list("n", "game_id", "game__number", "date", "cumulative", "rank", "elo"))
    return card_chart([ChartGame(*row) for row in read], total=total)


def _co_players(player, scope: RatingScope) -> tuple[list[CoPlayer], list[CoPlayer]]:
    """Who played with him (the same team) and against him most in the scope, with his win rate (one query)."""
    mine = PlayerGame.objects.filter(game_id=OuterRef("game_id"), player_id=player.pk)
    red = Case(When(role__in=RED_ROLES, then=Value(True)), default=Value(False), output_field=BooleanField())
    my_red = mine.annotate(red=red).values("red")[:1]
    rows = (PlayerGame.objects.filter(scope.games_q(), game_id__in=PlayerGame.objects.filter(
                scope.games_q(), player=player).values("game_id"))
            .exclude(player_id=player.pk)
            .annotate(red=red, my_red=Subquery(my_red), my_won=Subquery(mine.values("won")[:1]))
            .values("player_id", "player__nickname").order_by()
            .annotate(with_games=Count("id", filter=Q(red=F("my_red"))),
                      with_wins=Count("id", filter=Q(red=F("my_red"), my_won=True)),
                      against_games=Count("id", filter=~Q(red=F("my_red"))),
                      against_wins=Count("id", filter=~Q(red=F("my_red")) & Q(my_won=True))))
    rows = list(rows)
    partners = [CoPlayer(r["player_id"], r["player__nickname"], r["with_games"], r["with_wins"])
                for r in rows if r["with_games"]]
    opponents = [CoPlayer(r["player_id"], r["player__nickname"], r["against_games"], r["against_wins"])
                 for r in rows if r["against_games"]]

    def top(lines: list[CoPlayer]) -> list[CoPlayer]:
        return sorted(lines, key=lambda c: (-c.games, -c.win_rate, c.nickname))[:CO_PLAYERS]

    return top(partners), top(opponents)


def _seats(player, scope: RatingScope) -> list[SeatLine]:
    by_seat = {row["seat"]: row for row in PlayerGame.objects.filter(scope.games_q(), player=player)
               .values("seat").order_by().annotate(games=Count("id"), wins=Count("id", filter=Q(won=True)))}
    return [SeatLine(seat, by_seat.get(seat, {}).get("games", 0), by_seat.get(seat, {}).get("wins", 0))
            for seat in SEATS]


def _games_page(player, scope: RatingScope, stats: PlayerStats | None, page: int) -> tuple[list[dict], int, int]:
    pages = max(1, -(-(stats.games if stats else 0) // GAMES_PER_PAGE))
    page = min(max(1, page), pages)
    games = list(PlayerGame.objects.filter(scope.games_q(), player=player).order_by("-date", "-game_id").values(
        "date", "game_id", "role", "won", "total", number=F("game__number"),
        tournament_name=F("game__tournament__name"))[(page - 1) * GAMES_PER_PAGE: page * GAMES_PER_PAGE])
    return games, page, pages


def player_card(player, scope: RatingScope | None, *, page: int = 1) -> Card:
    """The card of `player` for the shown scope (a season or a tournament); the form and the Elo are the club's."""
    form = recent_form(player)
    current = EloRating.objects.filter(player=player).values_list("elo", flat=True).first()
    deltas = [g.elo_delta for g in form if g.elo_delta is not None]
    card = Card(player=player, scope=scope, stats=None, elo=current, elo_change=sum(deltas) if deltas else None,
                form=form, tournaments=player_tournaments(player))
    if scope is None:
        return card
    card.stats = PlayerStats.objects.filter(scope=scope, player=player).first()
    card.roles = role_lines(card.stats)
    card.chart = _chart(player, scope)
    card.partners, card.opponents = _co_players(player, scope)
    card.seats = _seats(player, scope)
    card.games, card.page, card.pages = _games_page(player, scope, card.stats, page)
    return card

