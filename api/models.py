"""API tokens: a club admin issues one for a member of the club's staff; the token reads what its holder may see.

Only the SHA-256 of the key is stored (the key itself is shown once, when issued); `prefix` lets the staff page tell
tokens apart without the key.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="api_tokens", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=120, help_text=_("What the token is for, e.g. a Telegram bot."))
    holder = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens",
                               verbose_name=_("holder"))
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=12, editable=False)
    created = models.DateTimeField(_("issued"), auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+",
                                   verbose_name=_("issued by"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None
