from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from club import task_queue
        from games import signals
        from games.rulesets import labels as ruleset_labels
        from games.tournaments import base as schedule_base
        from ratings import receivers, services_tasks
        from ratings.standings import final
        from ratings.statistics import registry

        task_queue.register_healer(services_tasks.HEALER)

        if final.rank_players not in schedule_base.RANKERS:
            schedule_base.RANKERS.append(final.rank_players)
        if registry.tiebreaker_label not in ruleset_labels.TIEBREAKER_LABELERS:
            ruleset_labels.TIEBREAKER_LABELERS.append(registry.tiebreaker_label)

        signals.scores_changed.connect(receivers.scores_changed, dispatch_uid="ratings.scores_changed")
        signals.protest_settled.connect(receivers.protest_settled, dispatch_uid="ratings.protest_settled")
        signals.lots_imported.connect(receivers.lots_imported, dispatch_uid="ratings.lots_imported")
        signals.players_merged.connect(receivers.players_merged, dispatch_uid="ratings.players_merged")
        post_migrate.connect(receivers.migrated, sender=self, dispatch_uid="ratings.migrated")
