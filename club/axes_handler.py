"""django-axes, three limits (AXES_LOCKOUT_PARAMETERS = ["username", ["username", "ip_address"], "ip_address"]):

- one login name from one address is locked out at AXES_FAILURE_LIMIT failures (5);
- one login name from anywhere at AXES_USERNAME_FAILURE_LIMIT (10: guessing one password from many addresses);
- one address, whatever the login names, only at the generous AXES_IP_FAILURE_LIMIT (100) — every judge of a
  venue shares its address, and a low limit let one person lock them all out — and never from an address the club
  admin lists as a trusted venue (`Club.trusted_addresses`); the two limits per login name still hold there.

axes counts every parameter against one limit; this handler scales each count to it. A successful login resets
only that login name's failures, so logging into one's own account does not wipe the address's record of guessing
at others.
"""

from __future__ import annotations

import ipaddress

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_lockout_parameters
from django.conf import settings
from django.db.models import Sum

from club.selectors import trusted_networks

IP_ONLY = "ip_address"
USERNAME_ONLY = "username"


def _limit(parameter) -> int:
    if parameter == IP_ONLY:
        return settings.AXES_IP_FAILURE_LIMIT
    if parameter == USERNAME_ONLY:
        return settings.AXES_USERNAME_FAILURE_LIMIT
    return settings.AXES_FAILURE_LIMIT


def is_trusted_address(address: str | None) -> bool:
    """Whether the address is one of the venues' the clubs' admins trust (club.selectors.trusted_networks)."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    return any(ip in network for network in trusted_networks())


class ClubAxesHandler(AxesDatabaseHandler):
    def get_failures(self, request, credentials: dict | None = None) -> int:
        parameters = get_lockout_parameters(request, credentials)
        worst = 0
        for parameter, attempts in zip(parameters, self.get_user_attempts(request, credentials), strict=True):
            if parameter == IP_ONLY and is_trusted_address(client_ip(request)):
                continue
            count = attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            # _limit(parameter) failures count as AXES_FAILURE_LIMIT
            worst = max(worst, count * settings.AXES_FAILURE_LIMIT // _limit(parameter))
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
