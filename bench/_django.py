"""Set up Django for a benchmark script on its own database (a file SQLite under bench/out/ by default)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"


def setup(db_name: str, *, fresh: bool = True) -> None:
    sys.path.insert(0, str(ROOT))
    OUT.mkdir(parents=True, exist_ok=True)
    if not os.environ.get("DATABASE_URL"):
        db = OUT / db_name
        if fresh and db.exists():
            db.unlink()
        os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    os.environ.setdefault("DEBUG", "1")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
