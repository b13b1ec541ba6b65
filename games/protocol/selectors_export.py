"""Reads: the `mafclub/1` document of a game and of a tournament (games/rules/interchange.py), with the stored
scores, the status and the decided protests; what the export command, the tournament's JSON and the API write out."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from club.models import Player
from games.models import Game, Seat, Tournament
from games.protocol.selectors import protocol_of, with_protocol
from games.rules.interchange import FORMAT, points_json, protocol_to_dict


def score_dict(seat: Seat) -> dict[str, Any]:
    items = [i for i in seat.score_items.all() if i.effective]
    return {
        "main": points_json(seat.main),
        "extras": points_json(seat.extras),
        "total": points_json(seat.total),
        "items": [{"kind": i.kind, "points": points_json(i.points), "clause": i.clause} for i in items],
    }


def _iso(value) -> str:
    return timezone.localtime(value).isoformat() if value else ""


# Keys of a decision's records that are this site's row ids: meaningless in another database, so not exported
# (the replay is named by its game number, which the record carries).
_SITE_IDS = {"id", "adjustment", "annulled", "replay"}


def _portable(record: Any) -> Any:
    if isinstance(record, dict):
        return {key: _portable(value) for key, value in record.items() if key not in _SITE_IDS}
    if isinstance(record, list):
        return [_portable(value) for value in record]
    return record


def protest_to_dict(protest) -> dict[str, Any]:
    """A protest and its decision as `mafclub/1` carries it (see games/rules/interchange.py)."""
    data: dict[str, Any] = {"category": protest.category, "text": protest.text, "filed_at": _iso(protest.filed_at),
                            "status": protest.status}
    if protest.seat:
        data["seat"] = protest.seat
    if protest.player_id:
        data["player"] = protest.player.nickname
    if protest.decided_at:
        data.update(decided_at=_iso(protest.decided_at), explanation=protest.explanation,
                    outcomes=_portable(list(protest.outcomes or [])))
    return data


def home_clubs(**seats) -> dict[int, str | None]:
    """The home club's name of every player seated in the games the `seats__…` filter names (None: a guest
    without one), in one query."""
    found = Player.objects.filter(**{f"seats__{key}": value for key, value in seats.items()})
    return dict(found.values_list("pk", "club__name").distinct())


def game_to_dict(game: Game, *, with_score: bool = True, homes: dict[int, str | None] | None = None) -> dict[str, Any]:
    data = protocol_to_dict(protocol_of(game))
    seats = {s.number: s for s in game.seats.all()}
    homes = home_clubs(game=game) if homes is None else homes
    for entry in data["seats"]:
        home = homes.get(seats[entry["seat"]].player_id)
        if home is not None:  # the seat's home club (a guest without one has none): an import finds the person
            entry["club"] = home
        if with_score:
            entry["score"] = score_dict(seats[entry["seat"]])
    # The extension fields: status, decided protests and what they changed (games/rules/interchange.py).
    data["status"] = game.status
    data["version"] = game.version  # an import refuses to re-write the game once it changed (import_guard)
    if game.signed_at:
        data["signed_at"] = _iso(game.signed_at)
    if game.replay_of_id and game.replay_of is not None:
        data["replay_of"] = game.replay_of.number
    for entry, adjustment in zip(data["adjustments"], game.adjustments.all(), strict=True):
        if adjustment.source == adjustment.Source.PROTEST:
            entry["source"] = "protest"
    protests = sorted(game.protests.all(), key=lambda p: (p.filed_at, p.pk))
    if protests:
        data["protests"] = [protest_to_dict(p) for p in protests]
    return data


def tournament_games(tournament: Tournament) -> QuerySet[Game]:
    return (with_protocol(tournament.games.order_by("number"), scores=True)
            .select_related("replay_of").prefetch_related("protests__player"))


def export_tournament(tournament: Tournament, *, include_hidden: bool = True) -> dict[str, Any]:
    """The mafclub/1 document; `include_hidden=False` leaves out the games whose results are hidden."""
    ruleset = tournament.ruleset
    header: dict[str, Any] = {"name": tournament.name, "ruleset": ruleset.slug}
    if tournament.difficult_roles:
        header["difficult_roles"] = list(tournament.difficult_roles)
    if tournament.stages:
        header["stages"] = list(tournament.stages)
    lots = {lot.player.nickname: lot.number for lot in tournament.lots.select_related("player").order_by("number")}
    if lots:
        header["lots"] = lots  # the stored lot (000 T6.2.4 / 002 III.14.6), so a re-import ranks identically
    games = list(tournament_games(tournament))
    homes = home_clubs(game__tournament=tournament)
    return {
        "format": FORMAT,
        "tournament": header,
        "games": [game_to_dict(g, homes=homes) for g in games if include_hidden or not g.results_hidden],
    }
