"""One helper for the writes that leave a trail (as pretix's `log_action`): who made the change and why.

The trail itself is django-simple-history's rows (a player's, a season's, a game's, a protest's, an overlay
token's); `games.protocol.selectors.audit_trail` reads a game's, with the live-entry actions and the head judge's decisions,
as one list in the reader's words. The reason is stored in English and shown translated by
`games.i18n.stored_reason_text`. Every app's writes use this helper (it sits in `club`, the lowest layer); no write
sets simple-history's `_history_user` / `_change_reason` by hand.
"""

from __future__ import annotations

from django.db import models


def log_action(instance: models.Model, *, by, reason: str = "", save: bool = True,
               update_fields: list[str] | None = None) -> models.Model:
    """Mark `instance`'s next history row with `by` as its user and `reason` as its change reason, and save it
    (`save=False`: the caller saves or deletes it itself, e.g. inside a savepoint)."""
    instance._history_user = by  # type: ignore[attr-defined]
    if reason:
        instance._change_reason = reason[:100]  # type: ignore[attr-defined]  # simple-history's history_change_reason is 100 characters
    if save:
        instance.save(update_fields=update_fields)
    return instance
