"""Who reads: the holder of a bearer token, else the session's user (anonymous included).

A token reads as its holder inside its own club only, with his roles there and never the site's superuser powers
(api.readers): every visibility rule of the site (games.visibility, games.permissions) applies to that reader
unchanged. A revoked or unknown token is refused with 401, never read as anonymous.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from ninja.errors import AuthenticationError
from ninja.security import HttpBearer

from api.readers import token_reader
from api.selectors import token_by_key


class TokenAuth(HttpBearer):
    openapi_description = "Ключ API-токена: «Authorization: Bearer mc_…» (выдаёт администратор клуба)."

    def authenticate(self, request, token: str):
        found = token_by_key(token)
        if found is None:
            raise AuthenticationError(401, _("Authorization: the API token is unknown or revoked."))
        request.api_token = found
        # The request's user, as a session's is on the site's pages: simple-history's middleware records him as the
        # author of what the request writes (an import), the same way as for the web upload.
        request.user = token_reader(found)
        return request.user


def session_or_anonymous(request):
    """No token: the reader is the session's user (a browser on the site) or anonymous."""
    return request.user


READ_AUTH: list[Callable[..., Any]] = [TokenAuth(), session_or_anonymous]
