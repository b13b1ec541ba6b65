from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self) -> None:
        from games import signals
        from leagues import receivers

        signals.scores_changed.connect(receivers.scores_changed, dispatch_uid="leagues.scores_changed")
        signals.protest_settled.connect(receivers.scores_changed, dispatch_uid="leagues.protest_settled")
