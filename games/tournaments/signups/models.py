"""A sign-up sheet of one event and the players' places on it."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


class SignupSheet(models.Model):
    """An event's sign-up: when it opens and closes, how many places, until when a place may be given back.

    Exactly one of `evening` and `tournament` is set. `starts_at` and `place` are what the home page shows of the
    event (a club evening stores only its date)."""

    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="signup_sheets",
                             verbose_name=_("club"))
    evening = models.OneToOneField("games.ClubEvening", on_delete=models.CASCADE, null=True, blank=True,
                                   related_name="signup_sheet", verbose_name=_("club evening"))
    tournament = models.OneToOneField("games.Tournament", on_delete=models.CASCADE, null=True, blank=True,
                                      related_name="signup_sheet", verbose_name=_("tournament"))
    starts_at = models.DateTimeField(_("starts at"))
    place = models.CharField(_("place"), max_length=200, blank=True)
    opens_at = models.DateTimeField(_("sign-up opens"))
    closes_at = models.DateTimeField(_("sign-up closes"))
    cancel_until = models.DateTimeField(_("cancel until"), null=True, blank=True,
                                        help_text=_("Empty: until the sign-up closes."))
    limit = models.PositiveSmallIntegerField(_("places"), null=True, blank=True,
                                             help_text=_("Empty: no limit, nobody waits."))
    # set when the organiser has turned the list into tables or participants
    converted_at = models.DateTimeField(_("turned into tables at"), null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        ordering = ["starts_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(evening__isnull=False, tournament__isnull=True)
                           | Q(evening__isnull=True, tournament__isnull=False)),
                name="signup_sheet_one_event"),
            models.CheckConstraint(condition=Q(closes_at__gt=models.F("opens_at")), name="signup_sheet_closes_after_opening"),
        ]

    def __str__(self) -> str:
        return str(self.event)

    @property
    def event(self):
        return self.evening if self.evening_id else self.tournament

    @property
    def cancel_deadline(self):
        return self.cancel_until or self.closes_at


class Signup(models.Model):
    """One player's place on a sheet. A place given back or taken off is kept (the organiser sees who cancelled and
    whom he took off the list, apart); the waiting list is the waiting places in the order they were taken
    (`queued_at`)."""

    class Status(models.TextChoices):
        CONFIRMED = "confirmed", _("Signed up")
        WAITING = "waiting", _("Waiting list")
        CANCELLED = "cancelled", _("Cancelled")
        REMOVED = "removed", _("Taken off by the organiser")

    sheet = models.ForeignKey(SignupSheet, on_delete=models.CASCADE, related_name="signups",
                              verbose_name=_("sign-up"))
    player = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="signups",
                               verbose_name=_("player"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    note = models.CharField(_("note to the organiser"), max_length=300, blank=True)
    queued_at = models.DateTimeField(_("signed up at"))
    cancelled_at = models.DateTimeField(_("cancelled at"), null=True, blank=True)
    promoted_at = models.DateTimeField(_("moved up at"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("sign-up place")
        verbose_name_plural = _("sign-up places")
        ordering = ["queued_at", "id"]
        constraints = [models.UniqueConstraint(fields=["sheet", "player"], name="signup_once_per_sheet")]

    def __str__(self) -> str:
        return f"{self.sheet_id}: {self.player_id} ({self.status})"


# the places no longer on the list: given back by the player, or taken off by the organiser
OFF_THE_LIST = (Signup.Status.CANCELLED, Signup.Status.REMOVED)
