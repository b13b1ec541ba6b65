"""`/health/` (club.health, club.views_health): the database, the cache and the task queue's state as JSON; 503 when
the database does not answer (against a real stopped PostgreSQL: tests/test_faults_server.py), 200 with the cache
flagged when Redis is down, never cached, no secret in it."""

from __future__ import annotations

import socket

import pytest
from django.db import OperationalError, connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client
from django_tasks import task
from django_tasks_db.models import DBTaskResult

from club import task_queue
from club.cache import _Outage
from club.settings import cache_config

pytestmark = pytest.mark.django_db
DB_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture(autouse=True)
def _fresh_outage():
    _Outage.reset()
    yield
    _Outage.reset()


@task()
def nothing() -> None:
    """A task for the queue's counts."""


def _health(client=None, **extra):
    response = (client or Client()).get("/health/", **extra)
    assert response["Content-Type"] == "application/json"
    assert "no-store" in response["Cache-Control"]
    return response, response.json()


def test_health_answers_200_with_the_database_cache_and_the_task_queue(settings):
    response, body = _health()
    assert response.status_code == 200
    assert body == {"status": "ok", "database": "ok", "cache": "ok",
                    "tasks": {"queued": 0, "running": 0, "failed": 0, "stale": 0, "workers": 0}}


def test_health_counts_the_queue_and_the_workers_holding_a_lease(settings, tmp_path, monkeypatch):
    settings.TASKS = DB_TASKS
    for _ in range(2):
        nothing.enqueue()
    DBTaskResult.objects.order_by("enqueued_at").first().claim("gone-worker")  # its worker died: stale
    if connection.vendor != "postgresql":
        monkeypatch.setattr(task_queue, "_lock_dir", lambda: tmp_path / "workers")
    lease = task_queue.hold_lease("live-worker")
    try:
        body = _health()[1]
    finally:
        lease.release()
    assert body["tasks"] == {"queued": 1, "running": 0, "failed": 0, "stale": 1, "workers": 1}
    assert task_queue.summary()["stale"] == 1  # the same figures as `manage.py tasks`
    assert _health()[1]["tasks"]["workers"] == 0  # the lease ends with the process (here: released)


def test_with_redis_silent_health_is_200_and_flags_the_cache(settings):
    with socket.socket() as silent:  # takes connections into its backlog, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        settings.CACHES = {"default": cache_config(f"redis://127.0.0.1:{silent.getsockname()[1]}/3")}
        response, body = _health()
    assert response.status_code == 200
    assert body["status"] == "degraded" and body["cache"] == "down" and body["database"] == "ok"
    assert body["tasks"]["queued"] == 0


def test_with_no_cache_by_choice_the_cache_is_off_and_health_ok(settings):
    settings.CACHES = {"default": cache_config("dummy://")}
    response, body = _health()
    assert response.status_code == 200 and body["cache"] == "off" and body["status"] == "ok"


def test_with_the_database_down_health_is_503_and_names_the_database(monkeypatch):
    def refused(self):
        raise OperationalError("connection refused")

    client = Client()
    monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", refused)
    monkeypatch.setattr(BaseDatabaseWrapper, "_cursor", lambda self, name=None: refused(self))
    response, body = _health(client)
    assert response.status_code == 503
    assert body == {"status": "down", "database": "down", "cache": "ok", "tasks": "down"}


def test_health_carries_no_secret_and_takes_only_get_and_head(settings):
    settings.SECRET_KEY = "health-test-secret-key-" + "x" * 30
    response = Client().get("/health/")
    text = response.content.decode()
    assert settings.SECRET_KEY not in text and "sqlite" not in text.lower() and "127.0.0.1" not in text
    assert Client().head("/health/").status_code == 200
    assert Client().post("/health/").status_code == 405
