"""What the public may see of a tournament's results: one place for every page, export and rating.

A tournament's organiser may hide the results from round N on (hidden standings before the final): those games
carry `Game.results_hidden`, set by `games.tournaments.services.results_hide` and cleared by `results_reveal`. While set, the
game's result, protocol, scores and rating changes are the judge staff's only: its pages answer 404 to anyone
else, and the game counts in no public aggregate (tournament standings, club ratings, statistics, Elo) — the
ratings read their games through `counting_games()`, so the standings the public sees are those of round N−1.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from club.permissions import is_judge
from games.models import Game

COUNTED = (Game.Status.FINISHED, Game.Status.SIGNED)


def counts_via(via: str) -> Q:
    """`Game.counts` in SQL (finished or signed, with a result), on the game reached by `via` (a relation's path
    with its "__", or "" for the game itself)."""
    return Q(**{f"{via}status__in": COUNTED}) & ~Q(**{f"{via}result": ""})


COUNTS = counts_via("")


def counting_games() -> QuerySet[Game]:
    """Games that count in scores, standings and ratings: finished with a result, and not hidden."""
    return Game.objects.filter(COUNTS, results_hidden=False)


def visible_games(qs: QuerySet[Game], user, club) -> QuerySet[Game]:
    """`qs` without the hidden games, unless the user is judge staff of `club`."""

    if club is not None and is_judge(user, club):
        return qs
    return qs.filter(results_hidden=False)


def can_see_hidden(user, game: Game) -> bool:
    """The judge staff of the game's club (judges, head judges, admins) see hidden results."""
    if not game.results_hidden:
        return True

    return is_judge(user, game.club)


def hidden_from(user, game: Game) -> bool:
    """The game's results are hidden and `user` is not the judge staff: he sees the placeholder page (table,
    players, date), and of its protests only his own, with no decision, status or time window; a player of the
    game is offered the protest form whatever the window, and a refusal says one neutral sentence
    (`games.protests.services.protest_file`), never the game's end or status."""
    return not can_see_hidden(user, game)


def can_see_hidden_in(user, tournament) -> bool:

    return is_judge(user, tournament.club) or (getattr(user, "is_authenticated", False)
                                               and tournament.head_judge_id == user.pk)
