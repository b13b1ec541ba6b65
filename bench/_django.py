"""Set up Django for a benchmark script on its own database (a file SQLite under bench/out/ by default).

The benches run as production does: DEBUG off (no query log, cached templates, the manifest static storage), so
the static files are collected once into bench/out/static. HTTPS redirects and secure cookies are off: the benches
speak plain HTTP to the test client and to a local gunicorn.
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
STATIC = OUT / "static"

BENCH_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
    "SECURE_SSL_REDIRECT": "0",
    "STATIC_ROOT": str(STATIC),
    "DJANGO_SETTINGS_MODULE": "club.settings",
}


def free_port() -> int:
    """A free TCP port on the loopback, for a server a bench starts."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def environment() -> dict[str, str]:
    """The environment of a bench process (and of the gunicorn it starts): the caller's, with the bench's defaults."""
    return {**BENCH_ENV, **os.environ}


def setup(db_name: str, *, fresh: bool = True, migrate: bool = True) -> None:
    sys.path.insert(0, str(ROOT))
    OUT.mkdir(parents=True, exist_ok=True)
    if not os.environ.get("DATABASE_URL"):
        db = OUT / db_name
        if fresh and db.exists():
            db.unlink()
        os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    for key, value in BENCH_ENV.items():
        os.environ.setdefault(key, value)
    import django
    from django.conf import settings
    from django.core.management import call_command

    django.setup()
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False  # plain HTTP to a local server
    if not settings.DEBUG and not (STATIC / "staticfiles.json").exists():
        call_command("collectstatic", interactive=False, verbosity=0)
    if migrate:
        call_command("migrate", verbosity=0)
