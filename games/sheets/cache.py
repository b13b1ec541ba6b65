"""The PDF of a finished or signed game, cached: it is re-rendered only when something printed on it changes.

A finished game (an imported one is finished) changes by a correction, an import or a protest's decision (each moves
its `version`, its result or its scores); a signed protocol is read-only, but what its sheet prints can still move: a protest decided on another game of the
tournament rescores it (Ci), a nickname or the judge's name can be edited. So the key is a digest of the printed
state, read with one small query (the game's version and signature, its seats with nicknames and scores, the judge),
plus the language, whether secrets are shown, and the sheet code's own version. The digest is also the ETag and the
render time the Last-Modified: a conditional GET is answered 304 after that one query, a repeated GET from the
cache, without WeasyPrint.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.core.cache import cache

from games.models import Game, Seat

TIMEOUT = 7 * 24 * 3600
_CODE = Path(__file__).resolve().parent
# Sheet code and layout: a deploy that changes them changes every key (the cache never serves an old layout).
_ROOT = _CODE.parent.parent
_SOURCES = [_CODE / "render.py", _ROOT / "games" / "templatetags" / "sheet_tags.py",
            _ROOT / "templates" / "games" / "sheets" / "sheet.html",
            _ROOT / "templates" / "games" / "sheets" / "_sheet_rows.html", _ROOT / "static" / "css" / "sheet.css"]
CODE_VERSION = hashlib.sha1(b"".join(p.read_bytes() for p in _SOURCES if p.exists())).hexdigest()[:12]


def cacheable(game: Game) -> bool:
    """A finished or signed game's sheet is kept; a game in play changes with every tap."""
    return game.status in (Game.Status.FINISHED, Game.Status.SIGNED)


def etag(game: Game, *, language: str, show_secrets: bool) -> str:
    """The digest of everything the sheet of `game` prints (one query over its seats)."""
    seats = Seat.objects.filter(game=game).order_by("number").values_list(
        "number", "player_id", "player__nickname", "role", "fouls", "main", "extras", "total", "won")
    header = Game.objects.filter(pk=game.pk).values_list(
        "version", "status", "signed_at", "result", "date", "number", "tournament__name", "evening__name",
        "evening__date", "club__name", "judge_name", "judge__first_name", "judge__last_name", "judge__username").get()
    raw = repr((CODE_VERSION, game.pk, header, language, show_secrets, list(seats)))
    return hashlib.sha1(raw.encode()).hexdigest()


def _key(tag: str) -> str:
    return f"sheet-pdf:{tag}"


def rendered_at(tag: str) -> int | None:
    """When the cached sheet with this digest was rendered (its Last-Modified; None when not cached).

    Not the signature time: a rescoring changes a signed sheet without touching the game, and a client holding the
    old one must not get a 304 for `If-Modified-Since` alone. A new digest is a new entry, rendered now.
    """
    return cache.get(_key(tag) + ":at")


def get(tag: str) -> bytes | None:
    return cache.get(_key(tag))


def put(tag: str, content: bytes, at: int) -> None:
    cache.set_many({_key(tag): content, _key(tag) + ":at": at}, TIMEOUT)
