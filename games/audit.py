"""One helper for the writes that leave a trail (as pretix's `log_action`): who made the change and why.

The trail itself is django-simple-history's rows (the game's, the protest's); `games.selectors.audit_trail` reads
them, with the live-entry actions and the head judge's decisions, as one list in the reader's words. The reason is
stored in English and shown translated by `games.i18n.stored_reason_text`.
"""

from __future__ import annotations

from django.db import models


def log_action(instance: models.Model, *, by, reason: str = "", save: bool = True,
               update_fields: list[str] | None = None) -> models.Model:
    """Save `instance` with `by` as the history's user and `reason` as its change reason (a history row)."""
    instance._history_user = by
    if reason:
        instance._change_reason = reason[:100]  # simple-history's history_change_reason is 100 characters
    if save:
        instance.save(update_fields=update_fields)
    return instance
