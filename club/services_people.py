"""Adding the person a typed line means (club.selectors_people.find_entry): the one found, or a new one — a member
of the host club for a plain nickname (a newcomer at the club's own night), or a guest without a membership when
the line names another club that has no member of that nickname. A guest of that nickname the site already has
(no home club) is the same guest, never a copy."""

from __future__ import annotations

from club.models import Club, Player, nickname_key
from club.selectors_people import Entry


def person_for(entry: Entry, host: Club, *, save: bool = True) -> Player:
    """The entry's person; a new one saved (or, `save=False`, left unsaved for the caller's audit note)."""
    if entry.player is not None:
        return entry.player
    key = nickname_key(entry.nickname)
    if entry.guest:
        known = Player.objects.filter(club__isnull=True, nickname_key=key).order_by("pk").first()
        if known is not None:
            return known
        player = Player(club=None, nickname=entry.nickname)
    else:
        known = Player.objects.filter(club=host, nickname_key=key).first()
        if known is not None:  # the host's home player (the member row is made with him)
            return known
        player = Player(club=host, nickname=entry.nickname)
    if save:
        player.save()
    return player
