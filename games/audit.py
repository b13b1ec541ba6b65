"""The audit helper of the games app's writes: `club.audit.log_action` (one helper for every app; club, the lowest
layer, holds it)."""

from __future__ import annotations

from club.audit import log_action

__all__ = ["log_action"]
