"""Reads for registering many participants at once: the preview of a pasted list of nicknames, and the earlier
tournaments and club nights whose players can be added in one go (the writes are in games.tournaments.services)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from club.models import NICKNAME_MAX_LENGTH, Player, clean_nickname, nickname_key
from games.models import ClubEvening, Seat, Tournament

MAX_PASTED = 200  # lines of one paste
NEAR_RATIO = 0.75  # difflib's ratio above which a new nickname looks like a typo of a known one


@dataclass
class PastedLine:
    """One line of the paste: what it becomes (`status`) and why."""

    line: int  # 1-based line of the paste
    nickname: str
    status: str  # "known" | "new" | "duplicate" (in the paste) | "registered" (already a participant) | "too_long"
    player: Player | None = None
    near: str = ""  # a known nickname the new one resembles: a typo?

    @property
    def added(self) -> bool:
        return self.status in ("known", "new")


def pasted_lines(text: str) -> list[str]:
    return [clean_nickname(line) for line in (text or "").splitlines() if clean_nickname(line)][:MAX_PASTED]


def roster_preview(tournament: Tournament, text: str) -> list[PastedLine]:
    """Each pasted nickname matched against the club's players (case and spacing ignored): known, new, repeated in
    the paste, already registered, too long; a new one that resembles a known nickname is flagged as a likely typo."""
    players = {p.nickname_key: p for p in Player.objects.filter(club=tournament.club)}
    registered = set(tournament.participants.values_list("player__nickname_key", flat=True))
    by_key = {key: p.nickname for key, p in players.items()}
    seen: set[str] = set()
    rows = []
    for number, nickname in enumerate(pasted_lines(text), 1):
        key = nickname_key(nickname)
        player = players.get(key)
        if len(nickname) > NICKNAME_MAX_LENGTH:
            status = "too_long"
        elif key in seen:
            status = "duplicate"
        elif key in registered:
            status = "registered"
        else:
            status = "known" if player else "new"
        near = ""
        if status == "new":
            close = difflib.get_close_matches(key, list(by_key), n=1, cutoff=NEAR_RATIO)
            near = by_key[close[0]] if close else ""
        seen.add(key)
        rows.append(PastedLine(number, nickname, status, player, near))
    return rows


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
        unique = {}
        for seat in seats:
            unique.setdefault(seat.player_id, seat.player)
        return list(unique.values())
    return []
