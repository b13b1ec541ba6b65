"""Reads for «Это я» right after registration: the club's players without a login whose nickname is like the name
the newcomer gave (his login, or a nickname he types)."""

from __future__ import annotations

import difflib

from club.models import Club, Player, nickname_key

SUGGESTION_LIMIT = 8
SUGGESTION_RATIO = 0.6  # looser than a typo (club.selectors_roster.NEAR_RATIO): "olga" ~ "ольга" is not expected


def claim_suggestions(*, club: Club | None, name: str) -> list[Player]:
    """Players of the club not linked to a login whose nickname contains `name` or resembles it, the closest
    first, at most SUGGESTION_LIMIT."""
    key = nickname_key(name)
    if club is None or not key:
        return []
    players = {p.nickname_key: p for p in Player.objects.filter(club=club, user__isnull=True, active=True)}
    ranked = {k: difflib.SequenceMatcher(None, key, k).ratio() for k in players}
    chosen = [k for k in players if key in k or k in key or ranked[k] >= SUGGESTION_RATIO]
    chosen.sort(key=lambda k: (-ranked[k], k))
    return [players[k] for k in chosen[:SUGGESTION_LIMIT]]
