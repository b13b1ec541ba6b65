"""The API's answer shapes (pydantic, through django-ninja): the OpenAPI schema at /api/v1/openapi.json is made
from these. Points are numbers, dates ISO 8601 (a program reads them; pages show dates in words)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Generic, TypeVar

from ninja import Schema

T = TypeVar("T")


class Error(Schema):
    detail: str


class ImportErrors(Schema):
    detail: str
    problems: list[str]  # the lines `manage.py import_protocols` prints for the same documents
    messages: list[str]  # the same, in the reader's language (as the import page shows them)


class Page(Schema, Generic[T]):
    count: int
    page: int
    per_page: int
    items: list[T]


class Club(Schema):
    id: int
    name: str
    city: str


class Player(Schema):
    id: int
    club_id: int | None  # the home club; null for a guest without a membership
    nickname: str
    city: str
    active: bool
    photo: str | None


class RoleLine(Schema):
    role: str  # citizen / mafia / sheriff / don
    letter: str  # К / Ч / Ш / Д
    games: int
    wins: int
    win_rate: float | None  # percent


class StatisticValue(Schema):
    key: str  # the registry's key (ratings.statistics.registry), e.g. sheriff_black_finds
    label: str  # in the request's language
    display: str  # integer / points / percent
    value: int | float | None  # an integer for "integer"; null when there is nothing to show (no games)


class SeasonRef(Schema):
    id: int
    name: str


class ClubMembership(Schema):
    club_id: int
    club: str
    joined: dt.date
    home: bool  # the player's home club


class AllGames(Schema):
    club_id: int | None  # the `?club=` the figures are for; null: every club of the site
    games: int
    wins: int
    win_rate: float | None  # percent


class PlayerCard(Player):
    clubs: list[ClubMembership]  # his memberships, the home club first
    all_games: AllGames  # his counted games at every club (or at `?club=`), each moving his one Elo
    season: SeasonRef | None
    games: int
    wins: int
    win_rate: float | None  # percent
    points: float
    average: float | None
    rank: int | None
    elo: float | None
    elo_games: int
    roles: list[RoleLine]
    statistics: list[StatisticValue]  # the season's statistics the card shows (ratings.statistics.registry)


class EloPoint(Schema):
    game_id: int
    date: dt.date
    before: float
    delta: float
    after: float
    games: int


class Season(Schema):
    id: int
    club_id: int
    name: str
    start: dt.date
    end: dt.date


class StandingRow(Schema):
    rank: int
    player_id: int | None
    player: str
    games: int
    wins: int
    main: float
    extras: float
    total: float
    average: float
    decided_by: str | None
    provisional: bool
    club: str | None = None  # the player's home club (null: a guest without one)


class Standings(Schema):
    rows: list[StandingRow]
    provisional: bool  # some row waits for a protest decision


class Tournament(Schema):
    id: int
    club_id: int
    name: str
    ruleset: str
    start_date: dt.date | None
    end_date: dt.date | None
    rounds: int
    seating_published: bool
    hidden_from_round: int | None


class Participant(Schema):
    number: int
    player_id: int
    nickname: str
    team: str
    from_round: int
    withdrawn_after: int | None


class SignupCounts(Schema):
    """An event's sign-up as its public page shows it: the times, the places and how many are signed up and
    waiting; never who (the lists and notes are the organiser's)."""
    id: int
    club_id: int
    event: str  # the club night's or tournament's name
    evening_id: int | None  # a club night's sign-up
    tournament_id: int | None  # a tournament's sign-up
    starts_at: dt.datetime
    place: str
    opens_at: dt.datetime
    closes_at: dt.datetime
    cancel_until: dt.datetime  # a place may be given back until then
    state: str  # "soon" (not open yet), "open", "closed"
    places: int | None  # None: no limit
    signed_up: int
    waiting: int
    free: int | None  # None: no limit


class TournamentDetail(Tournament):
    participants: list[Participant]
    signup: SignupCounts | None  # None: the tournament takes no sign-ups on the site


class ScheduleSeat(Schema):
    seat: int
    number: int | None  # the participant's number (None: a player not registered in the tournament)
    player_id: int
    nickname: str


class ScheduleTable(Schema):
    table: int
    game_id: int
    game_number: int
    judge: str
    seats: list[ScheduleSeat]


class ScheduleRound(Schema):
    number: int
    final: bool
    tables: list[ScheduleTable]
    sitting_out: list[int]


class Schedule(Schema):
    published: bool
    rounds: list[ScheduleRound]


class StaffRow(Schema):
    rank: int
    nickname: str
    games: int
    total: float


class TournamentStandings(Standings):
    hidden_from_round: int | None
    with_hidden: list[StaffRow] | None  # the judge staff's table over every round, hidden ones included


class GameSummary(Schema):
    id: int
    club_id: int
    tournament_id: int | None
    evening_id: int | None
    number: int
    table: int | None
    round: int | None
    stage: str
    date: dt.date
    status: str
    result: str | None  # red / black / draw once the game ended; null during play
    under_protest: bool
    judge: str


class Departure(Schema):
    how: str
    at: str


class GameSeat(Schema):
    seat: int
    player_id: int
    nickname: str
    club: str | None = None  # the seat's home club (null: a guest without one)
    fouls: int
    role: str | None  # null while secret
    left: Departure | None
    main: float | None
    extras: float | None
    total: float | None


class Nomination(Schema):
    by: int
    nominee: int
    withdrawn: bool


class Tally(Schema):
    seat: int
    votes: int


class GameDay(Schema):
    index: int
    nominations: list[Nomination]
    votes: list[Tally] | None
    revotes: list[list[Tally]]
    lift: int | None
    out: list[int]
    spoken: list[int]


class GameNight(Schema):
    index: int
    kill: int | None
    announced: bool
    don_check: int | None
    don_found_sheriff: bool | None
    sheriff_check: int | None
    sheriff_found_black: bool | None


class GameDetail(GameSummary):
    phase: str
    secrets_shown: bool
    seats: list[GameSeat]
    days: list[GameDay]
    nights: list[GameNight]
    best_move: list[int] | None
    best_move_victim: int | None
    protocol: dict[str, Any] | None  # the full mafclub/1 game once it ended


class Protest(Schema):
    id: int
    game_id: int
    category: str
    status: str
    seat: int | None
    player: str | None
    text: str
    filed_at: dt.datetime
    decided_at: dt.datetime | None
    explanation: str
    outcomes: list[Any]


class EloRow(Schema):
    rank: int
    player_id: int
    player: str
    elo: float
    games: int


class EloTable(Schema):
    recomputing: bool
    rows: list[EloRow]


class ImportReport(Schema):
    club: str
    created: int
    updated: int
    players_created: int
    tournaments: list[str]
    warnings: list[str]


class SeriesResult(Schema):
    tournament_id: int
    tournament: str
    place: int
    points: float
    counted: bool  # False: cut off (outside the player's best tournaments)


class SeriesRow(Schema):
    rank: int
    player_id: int
    player: str
    club: str
    total: float
    decided_by: str  # the tie-breaker that put this row below the one above: counted, best, latest (or "")
    tournaments: list[SeriesResult]


class SeriesEvent(Schema):
    tournament_id: int
    tournament: str
    club: str
    stars: float
    finals: bool
    state: str  # counts, hidden (no points until the results are shown), unconfirmed, unsupported


class SeriesStandings(Schema):
    series: str
    gaining_table: str
    gaining_version: int
    best_of: int
    events: list[SeriesEvent]
    rows: list[SeriesRow]
