"""The rendered game page and spectator board for the public, cached.

Only an anonymous visitor is served from this cache: telling a logged-in outsider from a seated player or the
club's staff costs queries, and staff and players see more (roles and checks of a game in play, the protest form,
the audit trail). The page's body is cached, not the response: `base.html` carries the visitor's CSRF token.

The key holds the game's id and `version` (bumped by every protocol write: a judge's tap, a correction),
`results_hidden` (hiding a round flips it; a hidden game is never cached), whether the protest window is still
open (it closes with time, not with a write), the language, and the club's *generation*: a random token kept in
the cache and dropped after every write that changes what the page shows without touching the game's row —
scores and the "under protest" mark (`games.signals`), a protest filed or decided, a player's nickname, the
club's settings, the Elo changes (`ratings.elo.services`). A dropped token is replaced by a new one, so an entry
rendered before the write is never found again; a cache that loses the token loses only hits. The token is
dropped at once and again after the write's commit, so a reader that stored the old state under a token made
between the two loses it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language

from club.cache import generation
from games.models import Game
from games.protests.services import protest_deadline

TIMEOUT = 60 * 60 * 24


def _generation_key(club_id: int) -> str:
    return f"gamepage-gen:{club_id}"


def _generation(club_id: int) -> str:
    return generation(_generation_key(club_id), TIMEOUT)


def club_generation(club_id: int) -> str:
    """The club's current generation (see the module): a key part for any public answer that shows what the
    generation's writes change (api.answers keys the API's game answer with it)."""
    return _generation(club_id)


def serves_public(user, game: Game) -> bool:
    """The visitor sees exactly the public view and may be served from the cache."""
    return not getattr(user, "is_authenticated", False) and not game.results_hidden


def window_open(game: Game) -> bool:
    deadline = protest_deadline(game)
    return deadline is not None and timezone.now() <= deadline


def cached_fragment(kind: str, game: Game, render: Callable[[], str]) -> str:
    """The public fragment `kind` of `game`, rendered by `render` on a miss."""
    parts = (kind, game.pk, game.version, int(game.results_hidden), int(window_open(game)),
             get_language(), _generation(game.club_id))
    key = "gamepage:" + hashlib.sha1(":".join(map(str, parts)).encode()).hexdigest()
    html = cache.get(key)
    if html is None:
        html = render()
        cache.set(key, html, TIMEOUT)
    return html


def invalidate_clubs(club_ids) -> None:
    """Forget every cached game page of these clubs once the current transaction commits."""
    keys = [_generation_key(c) for c in {c for c in club_ids if c is not None}]
    if keys:
        cache.delete_many(keys)
        transaction.on_commit(lambda: cache.delete_many(keys))
