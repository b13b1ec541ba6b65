"""An import never reverts what a judge entered after the file was made, and never overwrites a game in play.

An export carries each game's `version` (the optimistic-concurrency counter every write bumps: a judge's tap, a
protest decision, an import). On import, a stored game is re-written only when the file's version is the game's
current one (the file was made from this very state); a file without versions (older exports, paper protocols)
re-writes only games that nobody entered on the judge's screen. A game in play (in progress, with or without a
log, or a draft with a log) is never re-written, whatever the file's version. A refusal names the game as people
name it (table, game number, event) and the later change (what and when, from the game's log); the whole import
is then refused (it is one transaction).

Call `stale_game_problems` inside the import's transaction, after the tournaments and then the games were
locked (the lock order of `games.protocol.services.scoring.lock_scoring_scope`), so no judge changes the game between the
check and the write.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils import formats, timezone

from games.i18n import action_details, action_label
from games.models import Game, GameAction
from games.rules.i18n import N_
from games.rules.problems import Problem, error_t


def lock_stored_games(*, club, tournament_name: str) -> dict[int, Game]:
    """The tournament's stored games by number, locked in one order (by id); call after its tournament's lock."""
    qs: QuerySet[Game] = (Game.objects.select_for_update(of=("self",))
                          .filter(tournament__club=club, tournament__name=tournament_name).order_by("pk"))
    return {game.number: game for game in qs}


def _when(value) -> str:
    return formats.date_format(timezone.localtime(value), "j E Y, H:i") if value else "—"


def _entry(action: GameAction) -> str:
    """«фол (место 4, фолы +1), 1 декабря 2026, 20:15» — what the judge entered and when."""
    details = action_details(action.payload)
    what = f"{action_label(action.kind)} ({details})" if details else action_label(action.kind)
    return f"{what}, {_when(action.at)}"


def _place(game: Game, event: str) -> dict[str, object]:
    return {"number": game.number, "table": game.table or "—", "event": event}


def stale_game_problems(game: Game | None, file_version: int | None, *, event: str) -> list[Problem]:
    """Why the file may not re-write `game` (empty: it may, or the game is new)."""
    if game is None:
        return []
    last = game.actions.order_by("-seq").first()
    if game.status in (Game.Status.DRAFT, Game.Status.IN_PROGRESS) and last is not None:
        return [error_t("number", N_(
            "game %(number)s (table %(table)s, %(event)s) is being played on the judge's screen (last entry: "
            "%(entry)s); an import never overwrites a game in play"), entry=_entry(last), **_place(game, event))]
    if game.status == Game.Status.IN_PROGRESS:  # in play with no log: entered on paper or by an earlier import
        return [error_t("number", N_(
            "game %(number)s (table %(table)s, %(event)s) is in play (started, not finished); an import never "
            "overwrites a game in play: finish it first"), **_place(game, event))]
    if file_version is None:
        if last is None:
            return []
        return [error_t("version", N_(
            "game %(number)s (table %(table)s, %(event)s) was entered on the judge's screen (last entry: "
            "%(entry)s) and this file carries no version of it: export the tournament again and import that "
            "file"), entry=_entry(last), **_place(game, event))]
    if file_version == game.version:
        return []
    later = game.actions.filter(seq__gt=file_version).order_by("-seq").first()
    if later is not None:
        change = _entry(later)
    else:  # a protest decision or another import: the game's history says when
        record = game.history.order_by("-history_date").first()
        change = _when(record.history_date if record else None)
    return [error_t("version", N_(
        "game %(number)s (table %(table)s, %(event)s) changed after this file was made (version %(stored)s here, "
        "%(version)s in the file; last change: %(change)s); the import would undo it: export the tournament "
        "again and import that file"), stored=game.version, version=file_version, change=change,
        **_place(game, event))]
