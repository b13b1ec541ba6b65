"""django-axes, two limits: failed logins of one username from one address lock that pair out at
AXES_FAILURE_LIMIT; failed logins from one address, whatever the usernames, lock the address out at the higher
AXES_IP_FAILURE_LIMIT (one address trying many usernames is slowed down too).

axes counts both (AXES_LOCKOUT_PARAMETERS = ["ip_address", ["username", "ip_address"]]) against one limit; this
handler scales the per-address count to it. A successful login resets only that username's failures at that
address, so logging into one's own account does not wipe the address's record of guessing at others.
"""

from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_lockout_parameters
from django.conf import settings
from django.db.models import Sum

IP_ONLY = "ip_address"


class ClubAxesHandler(AxesDatabaseHandler):
    def get_failures(self, request, credentials: dict | None = None) -> int:
        parameters = get_lockout_parameters(request, credentials)
        worst = 0
        for parameter, attempts in zip(parameters, self.get_user_attempts(request, credentials), strict=True):
            count = attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            if parameter == IP_ONLY:
                # AXES_IP_FAILURE_LIMIT failures from the address count as AXES_FAILURE_LIMIT.
                count = count * settings.AXES_FAILURE_LIMIT // settings.AXES_IP_FAILURE_LIMIT
            worst = max(worst, count)
        return worst

    def reset_user_attempts(self, request, credentials: dict | None = None) -> int:
        parameters = get_lockout_parameters(request, credentials)
        count = 0
        for parameter, attempts in zip(parameters, self.filter_user_attempts(request, credentials), strict=True):
            if parameter != IP_ONLY:
                count += attempts.delete()[0]
        return count


def client_ip(request) -> str | None:
    """The client's address: REMOTE_ADDR, or behind TRUSTED_PROXY_COUNT trusted proxies (each appending to
    X-Forwarded-For) the address the outermost of them saw — otherwise every visitor would share the proxy's
    address and one guesser would lock everybody out."""
    proxies = settings.TRUSTED_PROXY_COUNT
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if proxies and len(forwarded) >= proxies:
        return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR")
