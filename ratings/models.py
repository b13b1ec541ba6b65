"""Stored facts of the standings: the lot is drawn once and kept, so a page shows the same order every time."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Lot(models.Model):
    """The lot number of a player in a tournament (000 T6.2.4, 002 III.14.6): lower ranks first on a full tie."""

    tournament = models.ForeignKey("games.Tournament", on_delete=models.CASCADE, related_name="lots")
    player = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="+")
    number = models.PositiveIntegerField(_("lot"))
    drawn_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("lot")
        verbose_name_plural = _("lots")
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="lot_once_per_player")]
