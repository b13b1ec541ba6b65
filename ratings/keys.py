"""Keys of the queued rewrites (`PendingTail.key`), shared by the writes that queue them and the reads that say
"пересчитывается": a read imports this module, never the service that writes."""

from __future__ import annotations

ELO_KEY = "elo:site"  # the site's queued Elo recompute (docs/elo.md): one Elo per player, wherever he plays


def history_key(scope_id: int) -> str:
    """The rating scope's queued history rewrite."""
    return f"history:{scope_id}"
