from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club"
    verbose_name = _("Club")

    def ready(self) -> None:
        from django.db import connections
        from django.db.backends.signals import connection_created

        from club import signals  # noqa: F401  (connects the receivers)
        from club.page_cache import watch_writes

        # every write of the club's data moves the public pages' generation (club.page_cache)
        connection_created.connect(watch_writes, dispatch_uid="club_public_page_writes")
        for connection in connections.all(initialized_only=True):
            watch_writes(None, connection)
        from club.admin_scope import restrict_unscoped

        restrict_unscoped()  # every app's admin module is loaded by now (django.contrib.admin comes first)
        from club.runtime import settle

        settle()  # the apps are loaded (club/wsgi.py settles again once the URLs are)
