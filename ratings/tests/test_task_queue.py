"""The task queue heals itself (`club.task_queue`, `ratings.tasks`, `ratings.services_tasks`): a recompute whose
worker died, or whose task failed, is queued again by the workers' sweep or by the next change; the tasks are safe
to run twice; `manage.py tasks` and the staff page show queued, running, failed and stuck work."""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from club import task_queue
from club.models import Membership
from club.tests.factories import MembershipFactory, UserFactory
from games.models import Game
from games.protocol.services.scoring import score_games
from games.visibility import COUNTED
from ratings import services_tasks
from ratings.elo import services as services_elo
from ratings.keys import ELO_KEY
from ratings.models import EloChange, EloRating, PendingTail, RatingPoint, RatingScope
from ratings.standings import services
from ratings.tasks import stale_reason

from .test_elo import POOL, replayed, two_tournaments  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db
DB_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def elo_rows(club):
    return sorted(EloChange.objects.filter(club=club).values_list("game_id", "player_id", "before", "delta", "after",
                                                                   "games"))


def marker(club) -> PendingTail:
    return PendingTail.objects.get(key=ELO_KEY)


def claimed_by(task_id: str, worker: str) -> None:
    """What a worker does when it takes the task (django-tasks-db's `claim`)."""
    DBTaskResult.objects.get(pk=task_id).claim(worker)


def run_queued() -> None:
    """What a live worker does with the queued rows."""
    for row in DBTaskResult.objects.ready().order_by("enqueued_at"):
        row.claim("test-worker")
        row.set_successful(row.task.call(*row.args_kwargs["args"], **row.args_kwargs["kwargs"]))


@pytest.fixture
def queued_k_change(two_tournaments, club, settings):  # noqa: F811
    """The club admin changed K with the database backend: the recompute waits for a worker."""
    settings.TASKS = DB_TASKS
    settings.ELO_K = 10
    services_elo.schedule_all()  # what rebuild_ratings queues after ELO_K changed
    return marker(club)


def test_a_marker_carries_its_task_and_is_not_stale_while_the_task_waits(queued_k_change):
    row = DBTaskResult.objects.get(pk=queued_k_change.task_id)
    assert row.status == TaskResultStatus.READY and row.task_path.endswith("recompute_elo")
    assert stale_reason(queued_k_change) is None
    assert task_queue.sweep() == 0 and DBTaskResult.objects.count() == 1


def test_a_task_whose_worker_died_is_marked_lost_and_the_sweep_queues_a_fresh_one(queued_k_change, club):
    claimed_by(queued_k_change.task_id, "killed-worker")  # claimed, then the process died: no lease is held
    assert stale_reason(queued_k_change) == "worker lost"
    assert task_queue.summary()["stale"] == 2  # the lost task and the marker it left
    assert task_queue.sweep() == 1
    lost = DBTaskResult.objects.get(pk=queued_k_change.task_id)
    assert lost.status == TaskResultStatus.FAILED and lost.exception_class_path == task_queue.LOST
    fresh = marker(club)
    assert fresh.task_id != queued_k_change.task_id and fresh.attempts == 2
    assert DBTaskResult.objects.get(pk=fresh.task_id).status == TaskResultStatus.READY
    run_queued()
    assert not PendingTail.objects.exists()
    assert dict(EloRating.objects.filter(player__club=club).values_list("player_id", "elo")) == replayed(club)
    assert task_queue.summary()["stale"] == 0


def test_a_task_whose_worker_holds_its_lease_is_left_running(queued_k_change, club):
    lease = task_queue.hold_lease("live-worker")
    try:
        claimed_by(queued_k_change.task_id, "live-worker")
        assert task_queue.worker_alive("live-worker")
        assert stale_reason(queued_k_change) is None
        assert task_queue.sweep() == 0
        assert DBTaskResult.objects.get(pk=queued_k_change.task_id).status == TaskResultStatus.RUNNING
        assert task_queue.summary()["running"] == 1
    finally:
        lease.release()
    assert not task_queue.worker_alive("live-worker")  # the lease ends with the process (here: released)
    assert stale_reason(marker(club)) == "worker lost"


def test_a_later_game_result_requeues_when_the_marker_is_stale(queued_k_change, two_tournaments, club):  # noqa: F811
    DBTaskResult.objects.filter(pk=queued_k_change.task_id).update(status=TaskResultStatus.FAILED)
    first, _ = two_tournaments
    early = first.games.order_by("number")[0]
    early.result = "black" if early.result != "black" else "red"
    early.save()
    score_games(game=early)  # schedule(): the marker is there but its task failed
    fresh = marker(club)
    assert fresh.task_id != queued_k_change.task_id
    assert DBTaskResult.objects.get(pk=fresh.task_id).status == TaskResultStatus.READY
    run_queued()
    assert dict(EloRating.objects.filter(player__club=club).values_list("player_id", "elo")) == replayed(club)


def test_a_settings_change_requeues_a_stale_marker(queued_k_change, club):
    claimed_by(queued_k_change.task_id, "killed-worker")
    services_elo.schedule_all()
    assert stale_reason(marker(club)) is None
    run_queued()
    assert dict(EloRating.objects.filter(player__club=club).values_list("player_id", "elo")) == replayed(club)


def test_a_task_that_keeps_dying_is_queued_at_most_max_attempts_times_then_shown_stuck(queued_k_change, club):
    for _ in range(services_tasks.MAX_ATTEMPTS + 2):
        for row in DBTaskResult.objects.ready():
            claimed_by(str(row.pk), "killed-worker")
        task_queue.sweep()
    assert DBTaskResult.objects.count() == services_tasks.MAX_ATTEMPTS
    assert marker(club).attempts == services_tasks.MAX_ATTEMPTS
    out = StringIO()
    call_command("tasks", "--format", "json", stdout=out)
    data = json.loads(out.getvalue())
    assert (data["queued"], data["running"], data["failed"], data["stale"]) == (0, 0, 3, 1)
    assert data["stale_work"] == [{"key": ELO_KEY, "since": "0001-01-01 #0",
                                   "task_id": marker(club).task_id, "why": "task failed"}]


def test_a_marker_from_before_task_ids_is_stale_only_after_a_grace(club):
    PendingTail.objects.create(key=ELO_KEY, since_date=dt.date.min, since_game=0)
    assert stale_reason(marker(club)) is None
    PendingTail.objects.update(queued_at=dt.datetime(2020, 1, 1, tzinfo=dt.UTC))
    assert stale_reason(marker(club)) == "no task"


def test_the_elo_task_run_twice_gives_the_same_result(two_tournaments, club, settings):  # noqa: F811
    settings.ELO_K = 10
    services_elo.schedule_all()
    once = elo_rows(club)
    PendingTail.objects.create(key=ELO_KEY, since_date=dt.date.min, since_game=0)
    services_elo.recompute_elo.call()  # the second run of a task that already did its work
    services_elo.recompute_elo.call()  # and one that finds its marker gone
    assert elo_rows(club) == once and not PendingTail.objects.exists()


def test_the_history_task_run_twice_gives_the_same_result(two_tournaments):  # noqa: F811
    first, _ = two_tournaments
    scope = RatingScope.objects.get(tournament=first)

    def points():
        return sorted(RatingPoint.objects.filter(scope=scope).values_list("player_id", "game_id", "seq", "n",
                                                                           "cumulative", "rank"))

    once = points()
    game = first.games.filter(status__in=COUNTED).order_by("date", "pk").first()
    for _ in range(2):
        PendingTail.objects.create(key=services.history_key(scope.pk), since_date=game.date, since_game=game.pk)
        RatingPoint.objects.filter(scope=scope).update(rank=99)  # what the task must rewrite
        services.recompute_history.call(scope.pk)
        assert points() == once
    assert services.recompute_history.call(scope.pk) == 0  # no marker: nothing to do, nothing changed
    assert points() == once and Game.objects.exists()


def test_manage_py_tasks_table(queued_k_change):
    out = StringIO()
    call_command("tasks", stdout=out)
    assert out.getvalue().splitlines() == ["queued   1", "running  0", "failed   0", "stale    0"]


def test_the_staff_page_says_how_the_queue_stands_in_russian(queued_k_change, club, client):
    admin = MembershipFactory(club=club, user=UserFactory(username="club_admin"), role=Membership.Role.ADMIN).user
    client.force_login(admin)
    claimed_by(queued_k_change.task_id, "killed-worker")
    html = client.get(reverse("staff")).content.decode()
    line = html.split('data-testid="task-queue"', 1)[1].split("</p>", 1)[0]
    assert "Фоновые задачи: в очереди 0, выполняются 0, с ошибкой 0, зависли 2." in " ".join(line.split())
    assert "text-danger" in html.split('data-testid="task-queue"', 1)[0].rsplit("<p", 1)[1]


def test_a_history_rewrite_lost_with_its_worker_is_queued_again_and_brings_the_history_back(two_tournaments, settings,  # noqa: F811
                                                                                           monkeypatch):
    first, _ = two_tournaments
    scope = RatingScope.objects.get(tournament=first)

    def points():
        return sorted(RatingPoint.objects.filter(scope=scope).values_list("player_id", "game_id", "seq", "rank"))

    right = points()
    settings.TASKS = DB_TASKS
    game = first.games.filter(status__in=COUNTED).order_by("date", "pk").first()
    monkeypatch.setattr(services, "INLINE_HISTORY", 0)
    services.schedule_history(scope, (game.date, game.pk))  # a long tail: queued for the worker
    pending = PendingTail.objects.get(key=services.history_key(scope.pk))
    RatingPoint.objects.filter(scope=scope).update(rank=99)  # what the lost task never rewrote
    claimed_by(pending.task_id, "killed-worker")
    assert task_queue.sweep() == 1
    fresh = PendingTail.objects.get(key=services.history_key(scope.pk))
    row = DBTaskResult.objects.get(pk=fresh.task_id)
    assert row.status == TaskResultStatus.READY and row.task_path.endswith("recompute_history")
    run_queued()
    assert points() == right and not PendingTail.objects.exists()


def test_a_task_queued_before_the_modules_moved_into_rooms_runs_after_the_upgrade(settings):
    """Tasks queued under the old paths (ratings.services_elo, ratings.services) are pointed at the rooms' modules
    by migration ratings 0014, so the worker started after the upgrade runs them instead of failing them."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("ratings.migrations.0014_task_paths_of_the_rooms")
    settings.TASKS = DB_TASKS
    elo = services_elo.recompute_elo.enqueue(0)
    history = services.recompute_history.enqueue(0)
    DBTaskResult.objects.filter(pk=elo.id).update(task_path="ratings.services_elo.recompute_elo")
    DBTaskResult.objects.filter(pk=history.id).update(task_path="ratings.services.recompute_history")
    migration.forwards(apps, None)
    assert DBTaskResult.objects.get(pk=elo.id).task == services_elo.recompute_elo
    assert DBTaskResult.objects.get(pk=history.id).task == services.recompute_history
