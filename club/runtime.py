"""What every process of the site does once it has loaded: the web server (club/wsgi.py), the task worker and the
management commands (club.apps.ClubConfig.ready), and the benches, which measure what those processes do."""

from __future__ import annotations

import gc


def settle() -> None:
    """Put the objects loaded so far (modules, models, settings, URL patterns) out of the garbage collector's walk
    (`gc.freeze`): they live as long as the process, and a full collection walked all of them, 30 ms at a time, in
    the middle of whichever request crossed its threshold (a head judge's decision: bench/README)."""
    gc.freeze()
