"""Writes of the club Elo (docs/elo.md): one `EloChange` row per player per counted game, and `EloRating`.

Games are ordered by (date, game id) within a club. When games change (scored, a protest decided, an import), the
Elo of every game from the earliest changed one on is recomputed: a short tail at once, in the scoring
transaction; a long one (more than INLINE_TAIL games) by the task worker (`recompute_elo`), with a
`PendingTail` row saying "пересчитывается" until it is done. The recompute streams the games in chunks and starts
from the ratings stored before the changed game, so its cost is the tail's, not the club's history.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django_tasks import task

from club.db import delete_returning, insert_rows, raw_rows
from club.models import Club, Player
from games.models import Seat
from games.page_cache import invalidate_clubs
from games.visibility import counting_games
from ratings.elo import formula as elo
from ratings.keys import pending_key
from ratings.models import EloChange, EloRating, PendingTail, at_or_after
from ratings.tasks import pause_for_tests, requeue, stale_reason

INLINE_TAIL = 50  # games after a change recomputed in the request; a longer tail goes to the worker
CHUNK = 1000

CHANGE_FIELDS = ["club_id", "game_id", "player_id", "date", "team", "score", "before", "delta", "after", "games"]
Key = tuple[dt.date, int]  # (date, game id): the order of a club's games


def _tail_games(club_id: int, since: Key):
    date, game_id = since
    return counting_games().filter(club_id=club_id).filter(at_or_after(date, game_id, game_field="pk"))


def games_changed(touched: Iterable[tuple[int, dt.date, int]]) -> None:
    """Games (club id, date, game id) were (re)scored: recompute each club's Elo from its earliest changed game."""
    since: dict[int, Key] = {}
    for club_id, date, game_id in touched:
        key = (date, game_id)
        if club_id not in since or key < since[club_id]:
            since[club_id] = key
    for club_id, key in since.items():
        schedule(club_id, key)


def schedule(club_id: int, since: Key) -> None:
    """Recompute the club's Elo from `since` now, or queue it for the worker when the tail is long."""
    with transaction.atomic(savepoint=False):
        club = Club.objects.select_for_update().filter(pk=club_id).first()  # one Elo writer per club at a time
        pending = PendingTail.objects.filter(key=pending_key(club_id)).first()
        if pending is not None:  # a recompute is queued: it will cover this change too
            if since < (pending.since_date, pending.since_game):
                pending.since_date, pending.since_game = since
                pending.save()
            if stale_reason(pending):  # ... unless its task is gone (failed, or lost with its worker)
                requeue(recompute_elo, pending, club_id)
            return
        tail = _tail(club_id, since, limit=INLINE_TAIL + 1)
        if len(tail) <= INLINE_TAIL:
            recompute(club_id, since, club=club, tail=tail)
            return
        pending = PendingTail.objects.create(key=pending_key(club_id), since_date=since[0], since_game=since[1])
        requeue(recompute_elo, pending, club_id)


def schedule_all(club_id: int) -> None:
    """The club's Elo settings changed: every game is recomputed, by the worker (the page says so meanwhile)."""
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club_id).first()
        pending, _ = PendingTail.objects.update_or_create(key=pending_key(club_id), defaults={
            "since_date": dt.date.min, "since_game": 0})
        requeue(recompute_elo, pending, club_id)


@task()
def recompute_elo(club_id: int) -> int:
    """The worker's task: the club's queued Elo tail."""
    return run_pending(club_id)


def run_pending(club_id: int) -> int:
    """The worker's side: recompute the queued tail of the club (if still queued). Returns the games recomputed."""
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club_id).first()
        pending = PendingTail.objects.filter(key=pending_key(club_id)).first()
        if pending is None:
            return 0
        since = (pending.since_date, pending.since_game)
        pending.delete()
        return recompute(club_id, since)


def _tail(club_id: int, since: Key, *, limit: int | None = None) -> list[tuple]:
    """The club's counting games from `since` on, in order: (id, date, result) as the driver gives them (a date
    stays text on SQLite; club.db.raw_rows), at most `limit`."""
    games = _tail_games(club_id, since).order_by("date", "pk").values_list("pk", "date", "result")
    return list(raw_rows(games if limit is None else games[:limit]))


def recompute(club_id: int, since: Key | None = None, *, club: Club | None = None,
              tail: list[tuple] | None = None) -> int:
    """Rewrite the club's EloChange rows from `since` (all if None) on, and the EloRating of the players in it
    (`club`: the club's row, and `tail`: the games from `since` on as `_tail` gives them, when the caller has
    read them)."""
    club = club or Club.objects.get(pk=club_id)
    changes = EloChange.objects.filter(club_id=club_id)
    if since is None:  # everything: whatever was queued is covered
        PendingTail.objects.filter(key=pending_key(club_id)).delete()
        since = (dt.date.min, 0)
    date, game_id = since
    touched = set(delete_returning(changes.filter(at_or_after(date, game_id)), "player_id"))  # no key points in
    ratings: dict[int | str, float] = {}  # keyed by player id (the formula takes any key)
    counts: dict[int | str, int] = {}
    ids = _tail(club_id, since) if tail is None else tail  # written back as the driver gave them
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start:start + CHUNK]
        pause_for_tests()
        seats: dict[int, list[tuple[int, str]]] = {}
        for game_id_, player_id, role in Seat.objects.filter(game_id__in=[g for g, _, _ in chunk]).order_by(
                "game_id", "number").values_list("game_id", "player_id", "role"):
            seats.setdefault(game_id_, []).append((player_id, role))
        new = {p for rows in seats.values() for p, _ in rows} - ratings.keys()
        if new:  # the rating each newcomer to the tail had just before it
            for player_id, after, games in _last_rows(new):
                ratings[player_id], counts[player_id] = after, games
        rows: list[tuple] = []
        for game_id_, game_date, result in chunk:
            game_seats = [elo.Seat(p, elo.team_of(role), _score(result, elo.team_of(role)))
                          for p, role in seats.get(game_id_, [])]
            if not game_seats:
                continue
            by_player = {s.player: s for s in game_seats}
            for change in elo.game_changes(game_seats, ratings, k=club.elo_k, start=club.elo_start):
                seat = by_player[change.player]
                counts[change.player] = counts.get(change.player, 0) + 1
                rows.append((club_id, game_id_, change.player, game_date, seat.team, seat.score, change.before,
                             change.delta, change.after, counts[change.player]))
                ratings[change.player] = change.after
        insert_rows(EloChange, CHANGE_FIELDS, rows)
    stale = touched - ratings.keys()  # players whose last game in the tail is gone (annulled, seat changed)
    for player_id, after, games in _last_rows(stale):
        ratings[player_id], counts[player_id] = after, games
    gone = touched - ratings.keys()  # no counting game left at all: no Elo
    if gone:
        EloRating.objects.filter(player_id__in=gone).delete()
    EloRating.objects.bulk_create(  # one statement: each player's row written or replaced (one row a player)
        [EloRating(club_id=club_id, player_id=p, elo=ratings[p], games=counts[p]) for p in sorted(ratings)],
        update_conflicts=True, unique_fields=["player"], update_fields=["club", "elo", "games"], batch_size=5000)
    invalidate_clubs([club_id])  # the game page shows each game's Elo changes
    return len(ids)


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
