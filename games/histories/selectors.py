"""Reads of the histories room: a tournament in MafiaRatings' game format (docs/imports.md "Export")."""

from __future__ import annotations

from typing import Any

from games.histories.mafiaratings import SOURCE
from games.histories.mafiaratings_out import write_game
from games.histories.models import ExternalId
from games.models import Game, Tournament
from games.protocol.selectors_export import game_to_dict, tournament_games


def export_mafiaratings(tournament: Tournament, *, include_hidden: bool = True) -> tuple[dict[str, Any], list[str]]:
    """`{"games": [...]}` in MafiaRatings' format (finished games only), and what it could not carry, game by game.
    A game or player that came from MafiaRatings keeps its id there; e-mails are never written."""
    games = [g for g in tournament_games(tournament) if g.result and (include_hidden or not g.results_hidden)]
    game_ids = dict(ExternalId.objects.filter(club=tournament.club, source=SOURCE, kind=ExternalId.Kind.GAME,
                                              game__in=games).values_list("game_id", "external_id"))
    player_ids = dict(ExternalId.objects.filter(club=tournament.club, source=SOURCE, kind=ExternalId.Kind.PLAYER)
                      .values_list("player_id", "external_id"))
    out, lost = [], []
    for game in games:
        players = {s.number: {"id": player_ids[s.player_id]} for s in game.seats.all() if s.player_id in player_ids}
        data, missing = write_game(game_to_dict(game, with_score=False), external_id=game_ids.get(game.pk, ""),
                                   players=players, started_at=_started(game),
                                   group={"tournamentId": tournament.pk})
        out.append(data)
        lost += [f"game {game.number}: {line}" for line in missing]
    return {"games": out}, lost


def _started(game: Game) -> str:
    return game.started_at.isoformat() if game.started_at else ""
