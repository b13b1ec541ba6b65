"""An event's overlay tokens: the secret part of the URLs an organiser pastes into OBS (docs/broadcast.md)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


def new_token() -> str:
    """32 random bytes, URL-safe (43 characters): not guessable, not derived from anything."""
    return secrets.token_urlsafe(32)


class OverlayToken(models.Model):
    """A per-event token (a tournament or a club evening). The public kind shows what the spectator view shows; the
    director's kind adds roles and night checks, for a delayed stream. A revoked token answers 404."""

    class Kind(models.TextChoices):
        PUBLIC = "public", _("Public overlay")
        DIRECTOR = "director", _("Director's view (roles and checks)")

    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="overlay_tokens",
                             verbose_name=_("club"))
    tournament = models.ForeignKey("games.Tournament", on_delete=models.CASCADE, null=True, blank=True,
                                   related_name="overlay_tokens", verbose_name=_("tournament"))
    evening = models.ForeignKey("games.ClubEvening", on_delete=models.CASCADE, null=True, blank=True,
                                related_name="overlay_tokens", verbose_name=_("club evening"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.PUBLIC)
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("created by"))
    created = models.DateTimeField(_("created"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    history = HistoricalRecords(excluded_fields=["token"])  # who created and revoked; the secret is not copied

    class Meta:
        verbose_name = _("overlay token")
        verbose_name_plural = _("overlay tokens")
        ordering = ["-created", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(tournament__isnull=False, evening__isnull=True)
                           | Q(tournament__isnull=True, evening__isnull=False)),
                name="overlay_token_one_event"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.event}"

    @property
    def event(self):
        return self.tournament if self.tournament_id else self.evening

    @property
    def is_director(self) -> bool:
        return self.kind == self.Kind.DIRECTOR
