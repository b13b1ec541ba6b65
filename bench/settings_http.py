"""Settings of the gunicorn the benches start: the site's (DEBUG off, from the environment bench/_django.py sets),
plus the floor page (bench/floor.py) and plain-HTTP cookies."""

from club.settings import *  # noqa: F403

ROOT_URLCONF = "floor"
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = False
