"""Russian names in /admin/ for third-party apps whose AppConfig names itself only in English (their models'
names come through their own gettext calls and our catalogue)."""

from axes.apps import AppConfig as AxesAppConfig
from django.utils.translation import gettext_lazy as _
from django_tasks_db.apps import TasksAppConfig


class AxesConfig(AxesAppConfig):
    verbose_name = _("Login lockouts")


class TasksDatabaseConfig(TasksAppConfig):
    verbose_name = _("Background tasks")  # type: ignore[assignment]
