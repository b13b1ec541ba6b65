"""Reads for registering many participants at once: the preview of a pasted list of nicknames, and the earlier
tournaments and club nights whose players can be added in one go (the writes are in games.tournaments.services)."""

from __future__ import annotations

from dataclasses import dataclass

from club.models import Player
from club.selectors_roster import PastedLine, match_pasted, pasted_lines
from games.models import ClubEvening, Seat, Tournament


def roster_preview(tournament: Tournament, text: str) -> list[PastedLine]:
    """Each pasted nickname (one per line) matched against the club's players (club.selectors_roster, the same
    preview as the club's roster paste): known, new, repeated in the paste, already registered, too long; a new
    one that resembles a known nickname is flagged as a likely typo."""
    registered = set(tournament.participants.values_list("player__nickname_key", flat=True))
    return match_pasted(tournament.club, [(nickname, "") for nickname in pasted_lines(text)], registered=registered,
                        other_clubs=True)


@dataclass
class EarlierEvent:
    key: str  # "t<pk>" a tournament, "e<pk>" a club night
    label: str
    players: int


def earlier_events(tournament: Tournament, limit: int = 20) -> list[EarlierEvent]:
    """The club's other tournaments (their participants) and club nights (the players seated there), newest first."""
    events = []
    for other in (Tournament.objects.filter(club=tournament.club).exclude(pk=tournament.pk)
                  .order_by("-start_date", "-created")[:limit]):
        count = other.participants.count()
        if count:
            events.append(EarlierEvent(f"t{other.pk}", other.name, count))
    for evening in ClubEvening.objects.filter(club=tournament.club).order_by("-date", "-pk")[:limit]:
        count = Seat.objects.filter(game__evening=evening).values("player_id").distinct().count()
        if count:
            events.append(EarlierEvent(f"e{evening.pk}", str(evening), count))
    return events


def players_of_event(tournament: Tournament, key: str) -> list[Player]:
    """The players of an earlier event of the same club, by `EarlierEvent.key`, in their order there."""
    kind, pk = (key or "")[:1], (key or "")[1:]
    if not pk.isdigit():
        return []
    if kind == "t":
        other = Tournament.objects.filter(club=tournament.club, pk=int(pk)).exclude(pk=tournament.pk).first()
        return [p.player for p in other.participants.select_related("player").order_by("number")] if other else []
    if kind == "e":
        seats = (Seat.objects.filter(game__evening_id=int(pk), game__club=tournament.club).select_related("player")
                 .order_by("game__number", "number"))
        unique: dict[int, Player] = {}
        for seat in seats:
            unique.setdefault(seat.player_id, seat.player)
        return list(unique.values())
    return []
