"""Who a request through an API token reads as: the token's holder inside the token's own club, with his staff roles
there and never the site's superuser powers; anyone else's club he reads as an anonymous reader does.

Every secret the API could answer (hidden rounds, roles and checks of a game in play, the judge staff's tables) is
decided by the site's predicates (games.visibility, games.permissions) for a user and an object of one club; the API's
selectors ask them for `reader_in(reader, object's club)`, so a token can never reach another club's secrets through
a role its holder has there, nor any club's through his superuser flag.
"""

from __future__ import annotations

import copy

from django.contrib.auth.models import AnonymousUser

from api.models import ApiToken


def _read_only(*args, **kwargs):
    raise RuntimeError("a token's reader is a read-only copy of its holder; it is never saved")


def token_reader(token: ApiToken):
    """A copy of the holder that has no superuser (nor /admin/) powers and knows its token's club; saving it is
    refused, so the copy can never demote the real account."""
    reader = copy.copy(token.holder)
    reader.__dict__.pop("_club_roles", None)  # club.permissions' per-request cache of roles
    reader.is_superuser = False
    reader.is_staff = False
    reader.token_club_id = token.club_id  # type: ignore[attr-defined]
    reader.save = _read_only  # type: ignore[method-assign]
    return reader


def reader_in(reader, club_id: int | None):
    """The reader of an object of club `club_id`: a session's user or anonymous reads as himself; a token's reader
    reads its own club as the holder (no superuser powers), any other club as an anonymous reader."""
    scope = getattr(reader, "token_club_id", None)
    if scope is None or scope == club_id:
        return reader
    return AnonymousUser()
