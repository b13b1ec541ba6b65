from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotifyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notify"
    verbose_name = _("notices")

    def ready(self) -> None:
        from club import task_queue
        from notify import receivers, schedule

        receivers.connect()
        task_queue.register_healer(task_queue.Healer(stale=schedule.waiting, heal=schedule.heal))
