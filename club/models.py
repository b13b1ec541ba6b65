"""The club itself: the club, its players, staff roles and "this is me" claims."""

from __future__ import annotations

import ipaddress
import re
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from club.pictures import PictureField

NICKNAME_MAX_LENGTH = 40

_SPACES = re.compile(r"\s+")


def nickname_key(nickname: str) -> str:
    """The form of a nickname used for uniqueness: case and spacing do not make a different player."""
    return _SPACES.sub(" ", (nickname or "").strip()).casefold()


def clean_nickname(nickname: str) -> str:
    """The nickname as shown: surrounding spaces dropped, internal runs of spaces collapsed, case kept."""
    return _SPACES.sub(" ", (nickname or "").strip())


# The widest network a club may trust: a wider one would exempt a whole provider (or everybody) from the limit.
TRUSTED_MIN_PREFIX = {4: 16, 6: 48}


def parse_trusted_networks(text: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """The venue's addresses, one address or network (CIDR, e.g. 203.0.113.0/28) per line; blank lines and
    anything after # are ignored. A line that is not an address, or a network wider than /16 (IPv6: /48), is a
    ValidationError naming the line."""
    networks, problems = [], []
    for number, raw in enumerate((text or "").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            network = ipaddress.ip_network(line, strict=False)
        except ValueError:
            problems.append(_("line %(line)s: “%(value)s” is not an address or a network such as 203.0.113.0/28")
                            % {"line": number, "value": line[:60]})
            continue
        if network.prefixlen < TRUSTED_MIN_PREFIX[network.version]:
            problems.append(_("line %(line)s: the network %(value)s is too wide (at most /%(prefix)s)")
                            % {"line": number, "value": line, "prefix": TRUSTED_MIN_PREFIX[network.version]})
            continue
        networks.append(network)
    if problems:
        raise ValidationError(problems)
    return networks


def validate_trusted_networks(text: str) -> None:
    parse_trusted_networks(text)


def validate_time_zone(name: str) -> None:
    """A time zone of the IANA database (zoneinfo), such as Europe/Moscow."""
    if name not in zoneinfo.available_timezones():
        raise ValidationError(_("Time zone: “%(value)s” is not a time zone such as Europe/Moscow.")
                              % {"value": (name or "")[:60]}, code="invalid")


def default_time_zone() -> str:
    return settings.TIME_ZONE


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    city = models.CharField(_("city"), max_length=80, blank=True)
    default_ruleset = models.ForeignKey(
        "games.RuleSetVersion", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("default rule set"), help_text=_("Used for new tournaments and club evenings."),
    )
    judge_timer_autostart = models.BooleanField(
        _("start the speech timer by itself"), default=True,
        help_text=_("On the judge's screen the minute starts with each speech; turn off to start it by hand."),
    )
    judge_records_voters = models.BooleanField(
        _("record who votes"), default=False,
        help_text=_("On the judge's screen each vote is entered by the raised hands (who voted for whom, "
                    "docs/rules.md I47) instead of the counts."),
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # club/axes_handler.py: failed logins from these addresses are not counted against the per-address limit
    # (every judge of a venue shares its address); the limits per login name still hold.
    trusted_addresses = models.TextField(
        _("trusted venue addresses"), blank=True, validators=[validate_trusted_networks],
        help_text=_("The addresses the club's venues reach the site from, one address or network (such as "
                    "203.0.113.0/28) per line. Failed logins from them do not lock the whole address out; "
                    "the limit for each login name still applies."),
    )

    # The club's look (templates/base.html, static/css/design.css): its logo in the header and its accent colour.
    # Re-encoded by club.pictures (LOGO: a PNG fit into a 256 px square), like every stored picture.
    logo = PictureField(_("logo"), upload_to="club/", blank=True, kind="logo",
                        help_text=_("PNG, JPEG or WebP; shown in the header at 32 px tall."))
    accent_color = models.CharField(
        _("accent colour"), max_length=7, default="#0d6efd",
        validators=[RegexValidator(r"^#[0-9a-fA-F]{6}$", _("Accent colour: write it as #RRGGBB, e.g. #c62828."))],
        help_text=_("The colour of the header's line, the chart and the initials, as #RRGGBB."))
    # Dates and times on the club's pages are shown in this zone (club.middleware.ClubTimeZoneMiddleware).
    time_zone = models.CharField(_("time zone"), max_length=64, default=default_time_zone,
                                 validators=[validate_time_zone],
                                 help_text=_("Dates and times on the club's pages are shown in this zone."))

    # The club's season rating (ratings/seasons): True counts every game played at the club's events, guests'
    # too (as clubs always did); False keeps the table to the club's members (club.selectors.member_players).
    season_counts_guests = models.BooleanField(
        _("the season rating counts guests"), default=True,
        help_text=_("On: everybody who played at the club's events is in its season rating. Off: only the club's "
                    "members."))

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person of the site. `club` is his home club (null: a guest without a membership); the clubs he belongs to
    are his `ClubMember` rows (club.selectors.member_players reads a club's members), and he may play anywhere."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players", verbose_name=_("home club"),
                             null=True, blank=True)
    nickname = models.CharField(_("nickname"), max_length=NICKNAME_MAX_LENGTH)
    # Filled from the nickname on save; the uniqueness constraint is on this column.
    # Casefolding may lengthen a word ("ß" → "ss"), hence the wider column.
    nickname_key = models.CharField(max_length=NICKNAME_MAX_LENGTH * 3, editable=False, db_index=True)
    real_name = models.CharField(
        _("real name"), max_length=120, blank=True, help_text=_("Visible only to the club staff and the player.")
    )
    # Re-encoded by club.pictures (PHOTO: a 512 px JPEG square), whichever form or code writes it.
    photo = PictureField(_("photo"), upload_to="players/", blank=True, kind="photo",
                         help_text=_("JPEG, PNG or WebP, at most 5 MB; it is cut to a square."))
    city = models.CharField(_("city"), max_length=80, blank=True)
    joined = models.DateField(_("joined"), default=timezone.localdate)
    active = models.BooleanField(_("active"), default=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
        verbose_name=_("login"),
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["nickname_key"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "nickname_key"],
                name="player_nickname_unique_in_club",
                violation_error_message=_("A player with this nickname already exists in the club."),
            ),
            models.CheckConstraint(
                condition=~models.Q(nickname_key=""),
                name="player_nickname_not_blank",
                violation_error_message=_("The nickname must not be empty."),
            ),
        ]

    def __str__(self) -> str:
        return self.nickname

    def save(self, *args, **kwargs) -> None:
        self.nickname = clean_nickname(self.nickname)
        self.nickname_key = nickname_key(self.nickname)
        super().save(*args, **kwargs)

    def clean(self) -> None:
        self.nickname = clean_nickname(self.nickname)
        self.nickname_key = nickname_key(self.nickname)
        if not self.nickname_key:
            raise ValidationError({"nickname": _("The nickname must not be empty.")})
        # The unique constraint is on nickname_key, which no form edits, so Django would skip it; check here so
        # every ModelForm (ours and the admin's) shows the clash on the nickname field. A nickname is unique among
        # a club's home players (the club tells them apart by it); guests without a home club may share one.
        if self.club_id is not None:
            clash = Player.objects.filter(club_id=self.club_id, nickname_key=self.nickname_key).exclude(pk=self.pk)
            if clash.exists():
                raise ValidationError(
                    {"nickname": _("A player with this nickname already exists in the club.")}, code="unique"
                )


class ClubMember(models.Model):
    """A player's membership of a club, with the date he joined it. A player may belong to several clubs; his home
    club (`Player.club`) is one of them. Staff roles are `Membership` rows, per club, apart from this."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="club_memberships",
                               verbose_name=_("player"))
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members", verbose_name=_("club"))
    joined = models.DateField(_("joined"), default=timezone.localdate)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("club member")
        verbose_name_plural = _("club members")
        ordering = ["joined", "pk"]
        constraints = [models.UniqueConstraint(fields=["player", "club"], name="club_member_once")]
        indexes = [models.Index(fields=["club", "player"])]

    def __str__(self) -> str:
        return f"{self.player} ({self.club})"


class PlayerMerge(models.Model):
    """A merge of two players (club/services_merge.py): `merged_id` was removed and everything of his moved to
    `kept`; his card's URL redirects to the kept one. `moved` counts what moved (the audit trail keeps it)."""

    kept = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="merged_from", verbose_name=_("kept"))
    merged_id = models.PositiveIntegerField(_("merged player id"), unique=True)
    merged_nickname = models.CharField(_("merged nickname"), max_length=NICKNAME_MAX_LENGTH)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                           related_name="+", verbose_name=_("by"))
    at = models.DateTimeField(_("when"), auto_now_add=True)
    moved = models.JSONField(_("moved"), default=dict)

    class Meta:
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.merged_nickname} → {self.kept}"


class Membership(models.Model):
    """A staff role of a user in a club. A user may hold several roles."""

    class Role(models.TextChoices):
        ADMIN = "admin", _("club admin")
        JUDGE = "judge", _("judge")
        HEAD_JUDGE = "head_judge", _("head judge")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("user")
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("staff role")
        verbose_name_plural = _("staff roles")
        constraints = [
            models.UniqueConstraint(fields=["club", "user", "role"], name="membership_unique_role"),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} ({self.club})"


class PlayerClaim(models.Model):
    """A user's request to be linked to an existing player ("this is me"), decided by a club admin."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        APPROVED = "approved", _("approved")
        REFUSED = "refused", _("refused")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims", verbose_name=_("user")
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims", verbose_name=_("player"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    note = models.TextField(_("note"), blank=True)

    class Meta:
        verbose_name = _("player claim")
        verbose_name_plural = _("player claims")
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.user} → {self.player} ({self.get_status_display()})"


class StaffInvitation(models.Model):
    """A one-time link that gives a staff role in a club to whoever opens it and accepts (club/invitations.py).

    The link is the row's id and an HMAC of it with `nonce` under the SECRET_KEY: the database alone holds no
    usable link, and the worker can still write the letter. It is used once, expires at `expires_at` and may be
    revoked by the club's admin."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("club"))
    role = models.CharField(_("role"), max_length=20, choices=Membership.Role.choices)
    email = models.EmailField(_("e-mail"), blank=True, help_text=_("Empty: a link to copy."))
    nonce = models.CharField(max_length=64, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                   related_name="+", verbose_name=_("invited by"))
    created = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)
    used_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="+", verbose_name=_("used by"))
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("staff invitation")
        verbose_name_plural = _("staff invitations")
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.get_role_display()} ({self.club}) — {self.email or self.pk}"
