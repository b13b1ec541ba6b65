"""Writes of the site's Elo (docs/elo.md): one Elo per player wherever he plays — one `EloChange` row per player per
counted game, and his `EloRating`.

Games are ordered by (date, game id) over the whole site. When games change (scored, a protest decided, an
import), the Elo of every game from the earliest changed one on is recomputed: a short tail at once, in the scoring
transaction; a long one (more than INLINE_TAIL games) by the task worker (`recompute_elo`), with a
`PendingTail` row saying "пересчитывается" until it is done. The recompute streams the games in chunks and starts
from the ratings stored before the changed game, so its cost is the tail's, not the site's history. K and the
starting value are the site's settings (`ELO_K`, `ELO_START`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.conf import settings
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django_tasks import task

from club.bulk import insert_rows
from club.db import site_lock
from club.models import Club, Player
from games.models import Seat
from games.page_cache import invalidate_clubs
from games.visibility import counting_games
from ratings.elo import formula as elo
from ratings.keys import ELO_KEY
from ratings.models import EloChange, EloRating, PendingTail, at_or_after
from ratings.tasks import pause_for_tests, requeue, stale_reason

INLINE_TAIL = 50  # games after a change recomputed in the request; a longer tail goes to the worker
CHUNK = 1000
ELO_LOCK = 0x656C6F  # "elo": PostgreSQL's advisory lock of the one Elo writer at a time

CHANGE_FIELDS = ["club_id", "game_id", "player_id", "date", "team", "score", "before", "delta", "after", "games"]


Key = tuple[dt.date, int]  # (date, game id): the order of the site's games


def _tail_games(since: Key):
    date, game_id = since
    return counting_games().filter(at_or_after(date, game_id, game_field="pk"))


def games_changed(touched: Iterable[tuple[int, dt.date, int]]) -> None:
    """Games (club id, date, game id) were (re)scored: recompute the Elo from the earliest changed game on."""
    keys = [(date, game_id) for _club_id, date, game_id in touched]
    if keys:
        schedule(min(keys))


def schedule(since: Key) -> None:
    """Recompute the Elo from `since` now, or queue it for the worker when the tail is long."""
    with transaction.atomic(savepoint=False):
        site_lock(ELO_LOCK)  # one Elo writer at a time
        pending = PendingTail.objects.filter(key=ELO_KEY).first()
        if pending is not None:  # a recompute is queued: it will cover this change too
            if since < (pending.since_date, pending.since_game):
                pending.since_date, pending.since_game = since
                pending.save()
            if stale_reason(pending):  # ... unless its task is gone (failed, or lost with its worker)
                requeue(recompute_elo, pending)
            return
        tail = _tail(since, limit=INLINE_TAIL + 1)
        if len(tail) <= INLINE_TAIL:
            recompute(since, tail=tail)
            return
        pending = PendingTail.objects.create(key=ELO_KEY, since_date=since[0], since_game=since[1])
        requeue(recompute_elo, pending)


def schedule_all() -> None:
    """Every game is recomputed, by the worker (the pages say so meanwhile)."""
    with transaction.atomic():
        site_lock(ELO_LOCK)
        pending, _ = PendingTail.objects.update_or_create(key=ELO_KEY, defaults={
            "since_date": dt.date.min, "since_game": 0})
        requeue(recompute_elo, pending)


@task()
def recompute_elo(*_old: int) -> int:
    """The worker's task: the queued Elo tail (a task queued per club before the Elo was the site's does the
    same)."""
    return run_pending()


def run_pending() -> int:
    """The worker's side: recompute the queued tail (if still queued). Returns the games recomputed."""
    with transaction.atomic():
        site_lock(ELO_LOCK)
        pending = PendingTail.objects.filter(key=ELO_KEY).first()
        if pending is None:
            return 0
        since = (pending.since_date, pending.since_game)
        pending.delete()
        return recompute(since)


def _tail(since: Key, *, limit: int | None = None) -> list[tuple]:
    """The counting games from `since` on, in order: (id, club id, date, result), at most `limit`."""
    games = _tail_games(since).order_by("date", "pk").values_list("pk", "club_id", "date", "result")
    return list(games if limit is None else games[:limit])


def _seats(game_ids: list[int]) -> dict[int, list[tuple[int, str]]]:
    seats: dict[int, list[tuple[int, str]]] = {}
    for game_id, player_id, role in Seat.objects.filter(game_id__in=game_ids).order_by(
            "game_id", "number").values_list("game_id", "player_id", "role"):
        seats.setdefault(game_id, []).append((player_id, role))
    return seats


def recompute(since: Key | None = None, *, tail: list[tuple] | None = None) -> int:
    """Rewrite the EloChange rows from `since` (all if None) on, and the EloRating of the players in them (`tail`:
    the games from `since` on as `_tail` gives them, when the caller has read them)."""
    if since is None:  # everything: whatever was queued is covered
        PendingTail.objects.filter(key=ELO_KEY).delete()
        since = (dt.date.min, 0)
    date, game_id = since
    # Read, then deleted by the same filter: no row comes between them (one Elo writer at a time: ELO_LOCK, or a
    # full rebuild). One DELETE … RETURNING through Django's private delete query gained nothing (bench/README.md).
    old = EloChange.objects.filter(at_or_after(date, game_id))
    touched = set(old.values_list("player_id", flat=True))
    old.delete()
    ratings: dict[int | str, float] = {}  # keyed by player id (the formula takes any key)
    counts: dict[int | str, int] = {}
    ids = _tail(since) if tail is None else tail
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start:start + CHUNK]
        pause_for_tests()
        seats = _seats([g for g, _, _, _ in chunk])
        new = {p for rows in seats.values() for p, _ in rows} - ratings.keys()
        if new:  # the rating each newcomer to the tail had just before it
            for player_id, after, games in _last_rows(new):
                ratings[player_id], counts[player_id] = after, games
        rows: list[tuple] = []
        for game_id_, club_id, game_date, result in chunk:
            rows += _game_rows(game_id_, club_id, game_date, result, seats.get(game_id_, []), ratings, counts)
        insert_rows(EloChange, CHANGE_FIELDS, rows)
    stale = touched - ratings.keys()  # players whose last game in the tail is gone (annulled, seat changed)
    for player_id, after, games in _last_rows(stale):
        ratings[player_id], counts[player_id] = after, games
    gone = touched - ratings.keys()  # no counting game left at all: no Elo
    if gone:
        EloRating.objects.filter(player_id__in=gone).delete()
    EloRating.objects.bulk_create(  # one statement: each player's row written or replaced (one row a player)
        [EloRating(player_id=p, elo=ratings[p], games=counts[p]) for p in sorted(ratings)],
        update_conflicts=True, unique_fields=["player"], update_fields=["elo", "games"], batch_size=5000)
    # the game page shows each game's Elo changes; a player's later games anywhere moved too: every club's pages
    invalidate_clubs(list(Club.objects.values_list("pk", flat=True)))
    return len(ids)


def _game_rows(game_id: int, club_id: int, game_date, result: str, seats: list[tuple[int, str]],
               ratings: dict, counts: dict) -> list[tuple]:
    """The EloChange rows of one game, moving `ratings` and `counts` on."""
    game_seats = [elo.Seat(p, elo.team_of(role), _score(result, elo.team_of(role))) for p, role in seats]
    by_player = {s.player: s for s in game_seats}
    rows = []
    for change in elo.game_changes(game_seats, ratings, k=float(settings.ELO_K), start=float(settings.ELO_START)):
        seat = by_player[change.player]
        counts[change.player] = counts.get(change.player, 0) + 1
        rows.append((club_id, game_id, change.player, game_date, seat.team, seat.score, change.before,
                     change.delta, change.after, counts[change.player]))
        ratings[change.player] = change.after
    return rows


def _score(result: str, team: str) -> float:
    if result == "draw":
        return 0.5
    return 1.0 if result == team else 0.0


def _last_rows(players: set[int]) -> list[tuple[int, float, int]]:
    """(player, Elo, games) after each player's latest stored game (players without one are left out)."""
    if not players:
        return []
    # The tail from `since` on was deleted and a player new to it has no row in it yet, so his latest row is his
    # last one before `since`: no date condition, a plain backward scan of the (player, date, game) index.
    last = EloChange.objects.filter(player_id=OuterRef("pk")).order_by("-date", "-game_id")
    rows = (Player.objects.filter(pk__in=players)
            .annotate(last_after=Subquery(last.values("after")[:1]), last_games=Subquery(last.values("games")[:1]))
            .values_list("pk", "last_after", "last_games"))
    return [(p, a, g) for p, a, g in rows if a is not None]
