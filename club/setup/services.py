"""Writes of the club's own settings: the first run of an empty site (its first administrator and the club) and the
club's settings page afterwards."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import OperationalError, connection, transaction
from django.utils.translation import gettext as _

from club import permissions, pictures, selectors
from club.db import is_conflict
from club.models import Club, Membership
from club.services import ServiceError, membership_set

# The fields of the club its admin edits on the settings page (the logo goes through `_logo_content`).
CLUB_FIELDS = ("name", "city", "accent_color", "default_ruleset", "time_zone", "season_counts_guests",
               "judge_timer_autostart", "judge_records_voters", "trusted_addresses")
# PostgreSQL: the key of the transaction's advisory lock that lets one first run at a time check the empty site.
_FIRST_RUN_LOCK = 0x6D616663  # "mafc"
RETRY_SECONDS = 10.0


class SetupClosed(Exception):
    """The site already has a user: the first run is over."""


def _logo_content(upload) -> pictures.NormalizedPicture:
    """The logo re-encoded by club.pictures (its LOGO rule: type, size, pixels checked; written anew as a PNG)."""
    try:
        return pictures.normalized(upload, pictures.LOGO)
    except pictures.PictureError as exc:  # «Логотип: …», the field and the rule named
        raise ServiceError(" ".join(exc.messages), field="logo") from exc


def _store_logo(club: Club, content: pictures.NormalizedPicture) -> None:
    """Stored as written; the file it replaces is deleted once the change commits (club.pictures.PictureField)."""
    club.logo.save(content.name or "logo.png", content, save=False)  # `normalized` names it
    club.save(update_fields=["logo"])


def _lock_first_run() -> None:
    """Two first runs at once (a double submit) must not both see an empty site. SQLite takes its write lock at
    BEGIN (settings: transaction_mode IMMEDIATE); PostgreSQL waits here for the other's transaction to end."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_FIRST_RUN_LOCK])


def _checked_club(fields: dict[str, Any], *, instance: Club | None = None) -> Club:
    club = instance or Club()
    for name, value in fields.items():
        setattr(club, name, value.strip() if isinstance(value, str) else value)
    try:
        club.full_clean(exclude=["logo"])
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise ServiceError(" ".join(messages), field=None if field == "__all__" else field) from exc
    return club


def first_run(*, username: str, email: str, password: str, club_fields: dict[str, Any], logo=None):
    """The site's first administrator (a superuser and the club's admin) and the club, in one transaction, while
    the site has no user at all; afterwards SetupClosed. Returns (user, club)."""
    username = username.strip()
    if not username:
        raise ServiceError(_("Enter a login name."), field="username")
    user = get_user_model()(username=username, email=email.strip(), is_staff=True, is_superuser=True)
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise ServiceError(" ".join(exc.messages), field="password1") from exc
    content = _logo_content(logo) if logo else None
    user.set_password(password)
    deadline = time.monotonic() + RETRY_SECONDS
    while True:
        try:
            return _first_run_write(user, club_fields, content)
        except OperationalError as error:  # the other submit holds SQLite's write lock: wait, then see it
            if not is_conflict(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _first_run_write(checked_user, club_fields: dict[str, Any], content: pictures.NormalizedPicture | None):
    with transaction.atomic():
        _lock_first_run()
        if not selectors.site_is_empty():
            raise SetupClosed
        club = _checked_club(club_fields)
        user = get_user_model().objects.create(  # a new object on every attempt: a retry inserts afresh
            username=checked_user.username, email=checked_user.email, password=checked_user.password,
            is_staff=True, is_superuser=True)
        club.save()
        membership_set(club=club, by=user, user=user, role=Membership.Role.ADMIN)
        if content is not None:
            _store_logo(club, content)
    return user, club


def club_settings_update(*, club: Club, by, fields: dict[str, Any], logo=None, remove_logo: bool = False) -> Club:
    """The club's admin (or a superuser) changes the club's settings; the logo (if given) is re-encoded."""
    if not permissions.is_club_admin(by, club):
        raise PermissionDenied(_("Only the club's admin may change the club's settings."))
    unknown = set(fields) - set(CLUB_FIELDS)
    if unknown:
        raise TypeError(f"club_settings_update got unknown fields: {sorted(unknown)}")
    content = _logo_content(logo) if logo else None
    with transaction.atomic():
        club = _checked_club(fields, instance=Club.objects.select_for_update().get(pk=club.pk))
        club.save(update_fields=list(fields))
        if content is not None:
            _store_logo(club, content)
        elif remove_logo and club.logo:
            old, storage = club.logo.name or "", club.logo.storage  # a logo is there: it has a name
            club.logo = ""
            club.save(update_fields=["logo"])
            transaction.on_commit(lambda: storage.delete(old))
    return club
