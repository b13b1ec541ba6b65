"""Details a new user met on the pages, each held by a test: forms that ask only what the rule set needs, the
protest window said as it is, drafts kept off the public list, no day that was never played."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.models import Game, RuleSetVersion
from games.protests.forms import PaperProtestForm, ProtestDecisionForm

pytestmark = pytest.mark.django_db


def _ruleset(slug):
    return RuleSetVersion.objects.filter(slug=slug, club__isnull=True).order_by("-version").first()


def test_the_decision_form_asks_for_the_sk_representative_only_where_the_rules_need_him(scene):
    game = Game.objects.filter(status="finished").first()
    assert "sk_representative" in ProtestDecisionForm(game=game).fields  # the demo plays CML (002 III.16)
    game.ruleset = _ruleset("xcraft")
    assert "sk_representative" not in ProtestDecisionForm(game=game).fields


def test_the_paper_protest_time_defaults_to_now():
    initial = PaperProtestForm().fields["written_at"].initial
    assert abs(initial - timezone.localtime()) < dt.timedelta(minutes=1)


def test_after_the_window_the_page_says_the_time_ran_out(scene):
    game = Game.objects.filter(status="finished").order_by("-number").first()
    client = Client()
    client.cookies["django_language"] = "ru"
    game.ended_at = timezone.now() - dt.timedelta(minutes=2)
    game.save(update_fields=["ended_at"])
    assert "Протесты принимаются до" in client.get(f"/games/{game.pk}/").content.decode()
    game.ended_at = timezone.now() - dt.timedelta(hours=2)
    game.save(update_fields=["ended_at"])
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Срок подачи протестов истёк" in page and "Протесты принимаются до" not in page


def test_an_empty_draft_is_not_among_the_latest_games(scene):
    live = Game.objects.filter(status="in_progress").first()
    draft = Game.objects.create(club=live.club, tournament=live.tournament, ruleset=live.ruleset, number=99, table=9,
                                date=timezone.localdate() + dt.timedelta(days=1), status=Game.Status.DRAFT)
    home = Client().get("/").content.decode()
    assert f"/games/{draft.pk}/" not in home and f"/games/{live.pk}/" in home


def test_a_finished_game_shows_no_day_it_never_reached(scene):
    game = Game.objects.filter(status="finished").order_by("number").first()
    last = game.days.order_by("-index").first()
    empty = game.days.create(index=last.index + 1, nominations=[])
    client = Client()
    client.force_login(get_user_model().objects.get(username="admin"))
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f"<strong>День {empty.index}</strong>" not in page and f"<strong>День {last.index}</strong>" in page
