"""What games announces to the apps built on it (ratings), so that games never imports them.

The layers go one way: ratings reads games, games knows nothing of ratings. When something ratings keeps depends
on changes here, games sends one of these signals and ratings connects a receiver (in `RatingsConfig.ready`).

Every signal's keyword arguments are plain ids, never model instances, so a receiver may hand them to a
background task as they are. Receivers run synchronously, inside the transaction of the change (Django's
`Signal.send`): what they write commits or rolls back with it, and an exception in a receiver undoes the change.
A receiver that wants to run after the commit wraps its work in `transaction.on_commit`.

scores_changed(sender=Game, game_ids, tournament_ids, club_ids)
    `games.protocol.services.scoring.score_games` stored new scores for these games (seat scores and score items). Sent once per
    scoring, inside the scoring transaction, after the scores are written. `game_ids` is every game scored: of a
    whole scope's rescoring every game of it, of one game's change (`score_games(game=…)`) that game and the games
    whose Ci moved with it — those that do not count (unfinished, annulled) included, with empty scores — so a
    receiver also sees a game that stopped counting. A game left out has the scores it had. `tournament_ids` are the games' tournaments (club games have none), `club_ids`
    their clubs.

protest_settled(sender=Game, game_ids, tournament_ids, club_ids)
    A protest on these games was rejected: no score changed, but they are no longer under protest, so whatever
    marked their rows provisional is stale. (An upheld protest rescores the game and sends `scores_changed`.)

players_merged(sender=Player, keep_id, other_id)
    `games.people.services.merge_players` moved everything of player `other_id` to `keep_id` and is about to delete
    him: a receiver moves its own rows of him (ratings: the lot). Sent in the merge's transaction, before the
    `scores_changed` of his games.

lots_imported(sender=Tournament, tournament_id, lots)
    An import carried the stored lot of a tournament (`lots`: player id -> lot number, drawn once, 000 T6.2.4,
    002 III.14.6). Sent in the import's transaction before the tournament is scored, so the ranking uses it.
"""

from django.dispatch import Signal

scores_changed = Signal()
protest_settled = Signal()
lots_imported = Signal()
players_merged = Signal()


def ids(values) -> list[int]:
    """Sorted distinct ids without None (a club game has no tournament)."""
    return sorted({v for v in values if v is not None})
