"""Scoring: the stored scores and score items of games, recomputed by the pure engine (games.rules.scoring) under
a lock of the tournament (or the club, for club games); ratings learn of it through games.signals.
"""

from __future__ import annotations

from collections.abc import Collection
from decimal import Decimal

from django.db import transaction
from django.db.models import Q

from club.bulk import update_rows
from club.models import Club, Player
from games import signals
from games.models import (
    Adjustment,
    Game,
    ScoreItem,
    Seat,
    Tournament,
)
from games.protocol.selectors import protocol_rows
from games.rules.protocol import BLACK, RED_ROLES
from games.rules.scoring import ci_counts, ci_from_counts, score_game, score_tournament
from games.visibility import counts_via


def scoring_scope(game: Game):
    """The games whose scores depend on each other (Ci, docs/rules.md D4): the tournament, or for club
    games the club's games of the same season (calendar year)."""
    return Game.objects.filter(_scope_q(game))


def _scope_q(game: Game, via: str = "") -> Q:
    """`scoring_scope` as a condition on the game reached by `via` (a relation's path with its "__", or "" for the
    game itself): written on the joined game, so that the database finds the scope by its index instead of
    matching a subquery of the scope's games against every game."""
    if game.tournament_id:
        return Q(**{f"{via}tournament_id": game.tournament_id})
    return Q(**{f"{via}club_id": game.club_id, f"{via}tournament__isnull": True, f"{via}date__year": game.date.year})


def lock_scoring_scope(*, tournament_id: int | None, club_id: int | None) -> None:
    """Serialise the rescoring of one scope until the transaction ends: a row lock on the tournament, or for club
    games (scored per club and season) on the club.

    The lock order of the whole code base: the scope first, then its games. A transaction that may rescore a
    scope (or writes several of its games) calls this before it locks or writes any game of the scope: the judge's
    action that scores (games.live.apply), a protest decision (games.protests.services), an import (games.protocol.services.imports);
    the schedule's services lock the tournament first too (games.tournaments.services). Two orders (one writer holding a game
    and waiting for the tournament, another holding the tournament and waiting for the game) would deadlock on
    PostgreSQL; one that still happens is a conflict (club.db.is_conflict): 409/503, never 500. After the scope,
    the rows of ratings (rating scopes, seasons) are locked by the scoring's receivers, never before it.

    On PostgreSQL this is `SELECT … FOR NO KEY UPDATE` (taken again later in the same transaction, it is a no-op):
    it serialises the scorings and every other locker of the row, but not the inserts that merely reference it (a
    new game or participant of the tournament takes only a KEY SHARE lock for its foreign key). SQLite
    has no row locks, but there every write transaction begins IMMEDIATE (club.settings), which serialises the
    writers as a whole.
    """
    if tournament_id is not None:
        list(Tournament.objects.select_for_update(no_key=True).filter(pk=tournament_id).values_list("pk", flat=True))
    elif club_id is not None:
        list(Club.objects.select_for_update(no_key=True).filter(pk=club_id).values_list("pk", flat=True))


def seated(game: Game | int) -> frozenset[str]:
    """The nicknames seated in a game (the engine's player keys): what a change of one game passes to
    `score_games(game=…, seated_before=…)`, read before the change."""
    return frozenset(Seat.objects.filter(game=game).values_list("player__nickname", flat=True))


def score_games(*, tournament: Tournament | None = None, game: Game | None = None,
                seated_before: Collection[str] | None = None, locked: bool = False,
                seated_after: Collection[str] | None = None) -> int:
    """Recompute and store the scores of a whole scope (a tournament, or the scope of `game`).

    Returns the number of games scored. Games that do not count (not finished, annulled) get empty scores.

    With `game` and `seated_before` (the nicknames seated in it before the change, `seated`), only that game changed:
    it and the games whose Ci may move with it are rescored (`_score_one_game`), and the result is what the whole
    scope's rescoring would store. `locked`: the caller holds the scope's lock (`lock_scoring_scope`) and `game` is
    the game's row as it stands now, read locked with its rule set and changed only through its saves; then it is
    neither locked nor read again. `seated_after`: who sits in it now, when the caller knows it without a read (a
    protest decision changes no seat's player).
    """
    if game is not None and tournament is None and seated_before is not None:
        return _score_one_game(game, seated_before, locked=locked, seated_after=seated_after)
    tournament_id: int | None
    club_id: int | None
    if tournament is not None:
        scope = Game.objects.filter(tournament=tournament)
        tournament_id, club_id = tournament.pk, None
    elif game is not None:
        scope = scoring_scope(game)
        tournament_id, club_id = game.tournament_id, game.club_id
    else:
        raise ValueError("score_games needs a tournament or a game")
    with transaction.atomic(savepoint=False):
        # Two tables of one tournament finishing at once: each rescoring reads every game of the scope, so the
        # second must read after the first has committed, or it would store the first game as unfinished.
        lock_scoring_scope(tournament_id=tournament_id, club_id=club_id)
        games = list(scope.select_related("ruleset").order_by("date", "number", "id"))
        read = protocol_rows(games, seat_fields=SCORE_COLUMNS)  # plain rows: no model instance per seat or day
        counting = [g for g in games if g.counts]
        # Only the seats whose score or items change are written (a sign-off or a protest moves one game, the
        # tournament's other hundred stay as they were): compare with what is stored.
        stored_items = _stored_items(games)
        items, items_changed, seats_to_update = _counting_changes(counting, read, stored_items)
        for g in games:
            if not g.counts:
                _no_score_changes(read[g.pk], stored_items, items_changed, seats_to_update)
        _store_changes(games, items, items_changed, seats_to_update)
    return len(counting)


def _score_one_game(game: Game, seated_before: Collection[str], *, locked: bool = False,
                    seated_after: Collection[str] | None = None) -> int:
    """Rescore one changed game and the games of its scope whose Ci moves with it; store what differs.

    Ci is the scope's only term across games (docs/rules.md D4; 002 III.3): per player and rule-set version, over
    the scope's counting games, K = games with a red card killed on Night 1 and R = games with a red card; it is
    credited only in a game black won, to its red Night-1 victim. A change of `game` moves the counts of the
    players seated in it before or after (`players`), so the other games that may change are the counting games of
    the scope where black won and one of them is the red Night-1 victim. Their counts come from the stored seats
    of the other counting games (role, first_night_death: what the engine stored for them) plus `game`'s new
    protocol. "Counting" is `Game.counts` (in SQL `games.visibility.counts_via`). Returns the number of
    games rescored.
    """
    with transaction.atomic(savepoint=False):  # in the caller's transaction: no savepoint (ratings.standings.services.refresh)
        if not locked:  # (score_games)
            lock_scoring_scope(tournament_id=game.tournament_id, club_id=game.club_id)  # before any game is read
            game = Game.objects.select_related("ruleset").get(pk=game.pk)
        players = set(seated_before) | (seated(game) if seated_after is None else set(seated_after))
        # The red seats of these players in the scope's other counting games, in one read: their Ci counts, and
        # the games where black won and one of them was the red Night-1 victim (`affected`).
        # The players are named by their keys (every player of that nickname, whatever his club): the seats are
        # then found by the player's index, where a condition on the nickname made PostgreSQL scan every seat.
        keys = list(Player.objects.filter(nickname__in=players).values_list("pk", flat=True))
        counts: dict[tuple[int, str], tuple[int, int]] = {}
        affected_ids: set[int] = set()
        for game_id, ruleset_id, result, player, killed in (
                Seat.objects.filter(_scope_q(game, "game__"), counts_via("game__"), role__in=RED_ROLES,
                                    player_id__in=keys).exclude(game_id=game.pk)
                # a summary that does not tell the first night is not in the counts (games.rules.scoring.ci_counts)
                .filter(Q(game__summary__isnull=True) | Q(game__summary__first_night_known=True))
                .values_list("game_id", "game__ruleset_id", "game__result", "player__nickname", "first_night_death")):
            old_k, old_r = counts.get((ruleset_id, player), (0, 0))
            counts[(ruleset_id, player)] = (old_k + killed, old_r + 1)
            if killed and result == BLACK:
                affected_ids.add(game_id)
        affected = list(Game.objects.filter(pk__in=affected_ids).select_related("ruleset")
                        .order_by("date", "number", "id")) if affected_ids else []
        read = protocol_rows([game, *affected], seat_fields=SCORE_COLUMNS)  # one read of every protocol rescored
        if game.counts:
            for player, (k, r) in ci_counts(read[game.pk].protocol).items():
                old_k, old_r = counts.get((game.ruleset_id, player), (0, 0))
                counts[(game.ruleset_id, player)] = (old_k + k, old_r + r)
        games = [game, *affected]
        stored_items = _stored_items(games)
        items: list[ScoreItem] = []
        items_changed: list[int] = []
        seats_to_update: list[tuple[int, dict]] = []
        for g in games:
            if not g.counts:
                _no_score_changes(read[g.pk], stored_items, items_changed, seats_to_update)
                continue
            ruleset = g.ruleset.ruleset()
            by_player = {p: c for (version, p), c in counts.items() if version == g.ruleset_id}
            score = score_game(read[g.pk].protocol, ruleset, ci=ci_from_counts(read[g.pk].protocol, by_player, ruleset))
            _seat_changes(read[g.pk], score, stored_items, items, items_changed, seats_to_update)
        _store_changes(games, items, items_changed, seats_to_update)
    return len(games)


def _store_changes(games: list[Game], items: list[ScoreItem], items_changed: list[int],
                   seats_to_update: list[tuple[int, dict]]) -> None:
    """Write what the rescoring found changed (the seats' score columns, the changed seats' items) and announce it,
    in the caller's transaction: the stored ratings change with the scores."""
    _write_seat_scores(seats_to_update)
    ScoreItem.objects.filter(seat_id__in=items_changed).delete()
    ScoreItem.objects.bulk_create(items, batch_size=1000)
    _scores_changed(games)


def _stored_items(games: list[Game]) -> dict[int, list[tuple]]:
    """The stored score items of the games' seats, by seat id: ITEM_COLUMNS tuples in their stored order."""
    stored_items: dict[int, list[tuple]] = {}
    for row in ScoreItem.objects.filter(seat__game__in=games).order_by("seat_id", "id").values_list(
            "seat_id", *ITEM_COLUMNS):
        stored_items.setdefault(row[0], []).append(row[1:])
    return stored_items


def _counting_changes(counting: list[Game], read, stored_items: dict[int, list[tuple]]
                      ) -> tuple[list[ScoreItem], list[int], list[tuple[int, dict]]]:
    """Score the counting games (each rule-set version's as one tournament) and compare with what is stored:
    (the new items of the seats whose items change, those seats' ids, (seat id, SCORE_COLUMNS) that change)."""
    by_version: dict[int, list[Game]] = {}
    for g in counting:
        by_version.setdefault(g.ruleset_id, []).append(g)
    items: list[ScoreItem] = []
    items_changed: list[int] = []  # seats whose items are replaced
    seats_to_update: list[tuple[int, dict]] = []  # (seat id, SCORE_COLUMNS)
    for group in by_version.values():
        ruleset = group[0].ruleset.ruleset()
        scores = score_tournament([read[g.pk].protocol for g in group], ruleset)
        for g, score in zip(group, scores, strict=True):
            _seat_changes(read[g.pk], score, stored_items, items, items_changed, seats_to_update)
    return items, items_changed, seats_to_update


def _seat_changes(read_game, score, stored_items: dict[int, list[tuple]], items: list[ScoreItem],
                  items_changed: list[int], seats_to_update: list[tuple[int, dict]]) -> None:
    """Compare one counting game's new score (the engine's GameScore) with what is stored, appending to the three
    lists of `_counting_changes`."""
    seats = {s.number: s for s in read_game.seats}
    for seat_score in score.seats:
        seat = seats[seat_score.seat]
        values = {c: getattr(seat_score, c) for c in SCORE_COLUMNS}
        if any(values[c] != getattr(seat, c) for c in SCORE_COLUMNS):
            seats_to_update.append((seat.id, values))
        seat_items = [(i.kind, i.points, i.clause, i.note, i.effective, _item_source(i.source))
                      for i in seat_score.items]
        seat_items = _mark_protest_adjustments(read_game.adjustments, seat.number, seat_items)
        if seat_items != stored_items.get(seat.id, []):
            items_changed.append(seat.id)
            items += [ScoreItem(seat_id=seat.id, **dict(zip(ITEM_COLUMNS, i, strict=True))) for i in seat_items]


def _no_score_changes(read_game, stored_items: dict[int, list[tuple]], items_changed: list[int],
                      seats_to_update: list[tuple[int, dict]]) -> None:
    """A game that does not count: its seats get empty scores and no items."""
    for seat in read_game.seats:
        if any(getattr(seat, c) for c in SCORE_COLUMNS):
            seats_to_update.append((seat.id, NO_SCORE))
        if seat.id in stored_items:
            items_changed.append(seat.id)


SCORE_COLUMNS = ("main", "extras", "total", "tiebreak_extras", "won", "first_night_death")
ITEM_COLUMNS = ("kind", "points", "clause", "note", "effective", "source")
NO_SCORE = {"main": Decimal(0), "extras": Decimal(0), "total": Decimal(0), "tiebreak_extras": Decimal(0), "won": False,
            "first_night_death": False}  # SCORE_COLUMNS of a game that does not count


def _write_seat_scores(seats: list[tuple[int, dict]]) -> None:
    """Store the materialised score columns of many seats, (seat id, SCORE_COLUMNS), with one prepared UPDATE
    (club.bulk.update_rows)."""
    update_rows(Seat, list(SCORE_COLUMNS), seats)


def _item_source(source: str) -> str:
    return source if source in ScoreItem.Source.values else ScoreItem.Source.AUTO


def _mark_protest_adjustments(adjustments: list, seat_number: int, items: list[tuple]) -> list[tuple]:
    """Lines from adjustments a protest decided keep source=protest (the sheet's back side). The engine
    appends a seat's adjustments in the protocol's order, so they pair up one to one. `adjustments` are the game's
    (rows with seat and source); `items` are ITEM_COLUMNS tuples (kind first, source last)."""
    sources = iter([a.source for a in adjustments if a.seat == seat_number])
    marked = []
    for item in items:
        if item[0] == "adjustment" and next(sources, None) == Adjustment.Source.PROTEST:
            item = (*item[:-1], ScoreItem.Source.PROTEST)
        marked.append(item)
    return marked


def _scores_changed(games: list[Game]) -> None:
    """Announce the new scores (`games.signals.scores_changed`): ratings refreshes its aggregates and caches."""
    if games:
        signals.scores_changed.send(sender=Game, game_ids=signals.ids(g.pk for g in games),
                                    tournament_ids=signals.ids(g.tournament_id for g in games),
                                    club_ids=signals.ids(g.club_id for g in games))
