"""
WSGI config for club project.

It exposes the WSGI callable as a module-level variable named ``application``.

For more information on this file, see
https://docs.djangoproject.com/en/5.2/howto/deployment/wsgi/
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")

application = get_wsgi_application()

from django.urls import get_resolver  # noqa: E402  (after the settings: Django is set up by now)

from club.runtime import settle  # noqa: E402

get_resolver().url_patterns  # every view's module loaded now, not by the first request  # noqa: B018
settle()
