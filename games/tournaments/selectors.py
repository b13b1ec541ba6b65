"""Reads for a tournament's schedule: rounds, tables, seats, judges; a judge's table now; the printed cards."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, Q, QuerySet, Sum

from games.models import Game, Participant, Seat, SeatLock, Tournament
from games.permissions import judge_among
from games.tournaments.base import FINAL_STAGE, RANKERS, is_started
from games.visibility import COUNTS, can_see_hidden_in

# statuses a judge still has work at
OPEN = (Game.Status.DRAFT, Game.Status.IN_PROGRESS)


@dataclass
class SeatRow:
    seat: int
    number: int | None  # the participant's number (None: a player not registered)
    nickname: str
    locked: bool = False
    player_id: int | None = None


@dataclass
class TableRow:
    game: Game
    table: int
    judge: str
    seats: list[SeatRow]
    started: bool
    hidden: bool


@dataclass
class RoundRow:
    number: int
    final: bool
    tables: list[TableRow] = field(default_factory=list)
    sitting_out: list[Participant] = field(default_factory=list)

    @property
    def game_numbers(self) -> str:
        return ",".join(str(t.game.number) for t in self.tables)


def judge_label(game: Game) -> str:
    """The table's judge as the schedule and the wall chart print him; never a judge who sits at the table as a
    player (a seating made before that was refused): then the table shows no judge."""
    if judge_among(game.judge_id, [s.player for s in game.seats.all()]) is not None:
        return ""
    return game.judge_display


def schedule_rounds(tournament: Tournament, round_number: int | None = None) -> list[RoundRow]:
    """Every round of the stored schedule (or one), its tables in order with their seats."""
    games = (tournament.games.filter(round__isnull=False).select_related("judge")
             .prefetch_related("seats__player").prefetch_related("actions").order_by("round", "table", "number"))
    if round_number is not None:
        games = games.filter(round=round_number)
    participants = list(tournament.participants.select_related("player"))
    number_of = {p.player_id: p.number for p in participants}
    locks = set(SeatLock.objects.filter(tournament=tournament).values_list("round", "participant__player_id"))
    rounds: dict[int, RoundRow] = {}
    for game in games:
        if game.round is None:  # filtered out above
            continue
        row = rounds.setdefault(game.round, RoundRow(game.round, game.stage == FINAL_STAGE))
        seats = [SeatRow(s.number, number_of.get(s.player_id), s.player.nickname, (game.round, s.player_id) in locks,
                         s.player_id) for s in sorted(game.seats.all(), key=lambda s: s.number)]
        row.tables.append(TableRow(game, game.table or 0, judge_label(game), seats, is_started(game),
                                   game.results_hidden))
    for row in rounds.values():
        playing = {s.number for t in row.tables for s in t.seats}
        if not row.final:
            row.sitting_out = [p for p in participants if p.plays(row.number) and p.number not in playing]
    return [rounds[r] for r in sorted(rounds)]


def schedule_contract(tournament: Tournament) -> dict:
    """The stored qualifying schedule in the `manage.py seating` JSON shape (participant numbers by seat)."""
    rounds = []
    for row in schedule_rounds(tournament):
        if row.final:
            continue
        rounds.append([[s.number for s in t.seats] for t in row.tables])
    return {"participants": tournament.participants.count(), "rounds": rounds}


def judge_tables_now(user) -> list[Game]:
    """The judge's next tables: for each tournament with a published schedule, his first game not finished yet."""
    if not getattr(user, "is_authenticated", False):
        return []
    games = (Game.objects.filter(judge=user, status__in=OPEN, round__isnull=False,
                                 tournament__seating_published=True)
             .select_related("tournament").order_by("tournament_id", "round", "table"))
    first: dict[int | None, Game] = {}  # by tournament (each game here has one)
    for game in games:
        first.setdefault(game.tournament_id, game)
    return list(first.values())


@dataclass
class Card:
    participant: Participant
    rows: list[tuple[int, int, int]]  # (round, table, seat)


def participant_cards(tournament: Tournament) -> list[Card]:
    """Each participant's card: in which round he sits at which table, in which seat."""
    participants = list(tournament.participants.select_related("player").order_by("number"))
    rows: dict[int, list[tuple[int, int, int]]] = {p.player_id: [] for p in participants}
    seats = (tournament.games.filter(round__isnull=False).exclude(stage=FINAL_STAGE)
             .values_list("round", "table", "seats__number", "seats__player_id").order_by("round", "table"))
    for round_number, table, seat, player_id in seats:
        if player_id in rows and round_number is not None:
            rows[player_id].append((round_number, table or 0, seat))
    return [Card(p, rows[p.player_id]) for p in participants]


def round_links(tournament: Tournament, user) -> list[dict]:
    """Per round, the game numbers of its tables (the round's sheets document), once the seating is public."""

    if not (tournament.seating_published or can_see_hidden_in(user, tournament)):
        return []
    rounds: dict[int, list[int]] = {}
    for round_number, number in (tournament.games.filter(round__isnull=False).order_by("round", "table", "number")
                                 .values_list("round", "number")):
        if round_number is not None:  # filtered out above
            rounds.setdefault(round_number, []).append(number)
    return [{"round": r, "numbers": ",".join(map(str, n))} for r, n in sorted(rounds.items())]


@dataclass
class StaffRow:
    rank: int
    nickname: str
    games: int
    total: Decimal


def staff_standings(tournament: Tournament) -> list[StaffRow]:
    """The standings over every finished game, hidden rounds included: for the judge staff while results are
    hidden (ranked by the tie-broken standings the ratings layer registers in `games.tournaments.base.RANKERS`)."""

    if not RANKERS:
        return []
    games = list(tournament.games.filter(COUNTS))
    sums: dict[int, list] = {}
    for player_id, nickname, total in (Seat.objects.filter(game__in=games)
                                       .values_list("player_id", "player__nickname", "total")):
        row = sums.setdefault(player_id, [nickname, 0, 0])
        row[1] += 1
        row[2] += total
    order = RANKERS[-1](tournament, games)
    return [StaffRow(i, *sums[pk]) for i, pk in enumerate(order, 1) if pk in sums]


def game_list_stamp(games: QuerySet) -> str:
    """What a list of games shows, in one aggregate: which games (their count and keys), their versions (bumped by
    every write of a protocol: a tap, a correction, an import, a sign-off) and how many are hidden. With the club's
    generation (games.page_cache: a protest filed or decided, a rescoring, a renamed player) it keys the tournament
    page's cached list."""
    row = games.aggregate(n=Count("pk"), keys=Sum("pk"), versions=Sum("version"),
                          hidden=Count("pk", filter=Q(results_hidden=True)))
    return ":".join(str(row[name]) for name in ("n", "keys", "versions", "hidden"))

