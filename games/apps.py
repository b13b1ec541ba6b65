from django.apps import AppConfig
from django.apps import apps as global_apps
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _

from games.rules.ruleset import PRESETS


def ensure_presets(sender, *, apps=None, using="default", **kwargs) -> None:  # noqa: ARG001 — sender: post_migrate calls receiver(sender=..., **kwargs)
    """Keep the four rule-set presets present after every migrate and flush (docs/rules.md, Decisions).

    The data migration seeds them; `flush` (used by tests that commit, and by admins) would leave a site without
    them, so they are restored from the code here. Existing rows are never changed.
    """
    if apps is None:  # `flush` sends the signal without the migration state
        apps = global_apps
    try:
        RuleSetVersion = apps.get_model("games", "RuleSetVersion")
    except LookupError:  # migrating backwards past the model
        return
    existing = set(RuleSetVersion.objects.using(using).filter(is_preset=True, version=1).values_list("slug", flat=True))
    RuleSetVersion.objects.using(using).bulk_create([
        RuleSetVersion(slug=p.slug, version=1, name=p.name, is_preset=True, params=p.to_dict())
        for p in PRESETS.values() if p.slug not in existing
    ])


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        post_migrate.connect(ensure_presets, sender=self, dispatch_uid="games.ensure_presets")
        # The sign-ups' models live in their capability package (games/tournaments/signups/models.py), not in games/models.py.
        from games.histories import models as _histories  # noqa: F401  (external ids of imports)
        from games.page_cache_receivers import connect
        from games.tournaments.signups import models  # noqa: F401

        connect()
