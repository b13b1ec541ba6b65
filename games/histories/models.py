"""What another site calls a player or a game: kept from an import so that the next import of the same file
recognises them (docs/imports.md "Re-importing")."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ExternalId(models.Model):
    class Kind(models.TextChoices):
        PLAYER = "player", _("player")
        GAME = "game", _("game")

    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="external_ids",
                             verbose_name=_("club"))
    source = models.CharField(_("source"), max_length=40)  # "mafiaratings"
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    external_id = models.CharField(_("external id"), max_length=100)
    player = models.ForeignKey("club.Player", on_delete=models.CASCADE, null=True, blank=True,
                               related_name="external_ids", verbose_name=_("player"))
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, null=True, blank=True,
                             related_name="external_ids", verbose_name=_("game"))
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        verbose_name = _("external id")
        verbose_name_plural = _("external ids")
        constraints = [
            models.UniqueConstraint(fields=["club", "source", "kind", "external_id"], name="external_id_once"),
            models.CheckConstraint(
                condition=(models.Q(kind="player", player__isnull=False, game__isnull=True)
                           | models.Q(kind="game", game__isnull=False, player__isnull=True)),
                name="external_id_names_its_row"),
        ]

    def __str__(self) -> str:
        return f"{self.source}:{self.kind}:{self.external_id}"


class PendingHistoryImport(models.Model):
    """An uploaded history waiting for the admin's confirmation of the players' matching: nothing of it is imported
    until then (docs/imports.md "The upload page"). The files are kept as uploaded (base64 in JSON)."""

    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="+", verbose_name=_("club"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    format = models.CharField(_("format"), max_length=20)
    files = models.JSONField(default=list)  # [{"name": "...", "data": "<base64>"}]
    tournament = models.CharField(_("tournament"), max_length=200, blank=True)
    ruleset = models.CharField(_("rule set"), max_length=60, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        verbose_name = _("pending import")
        verbose_name_plural = _("pending imports")

    def __str__(self) -> str:
        return f"{self.format} ({len(self.files)} file(s))"
