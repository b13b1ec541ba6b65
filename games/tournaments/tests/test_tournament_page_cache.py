"""The tournament page's list of games is rendered once per state (games.tournaments.selectors.game_list_stamp and
the club's generation) and kept: every write that changes what it shows is on the next page (a sign-off, a protest
filed and decided, an import's correction, a rename, a hidden round shown), and the staff's list (with the hidden
games) is never served to the public, nor the public's to the staff."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from club.models import Membership
from club.tests.factories import MembershipFactory, UserFactory
from games.models import Game, Protest
from games.tests.protest_fixtures import ex18_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return ex18_tournament()


def _list(client, tournament) -> str:
    html = client.get(reverse("games:tournament_detail", args=[tournament.pk])).content.decode()
    return html[html.index('data-testid="game-list"'):html.index("</table>")]


def _games_read(client, tournament) -> int:
    """How many statements of the page read the games' rows (not the one aggregate of the stamp)."""
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("games:tournament_detail", args=[tournament.pk]))
    return sum('"pending_protest"' in q["sql"] for q in queries.captured_queries)


def test_the_list_is_read_once_and_kept(client, tournament):
    assert _games_read(client, tournament) == 1
    assert _games_read(client, tournament) == 0


def test_a_sign_off_a_protest_a_correction_and_a_rename_show_on_the_next_page(client, tournament):
    game = tournament.games.get(number=2)
    before = _list(client, tournament)
    assert "Under protest" not in before and "Оспаривается" not in before
    Game.objects.filter(pk=game.pk).update(status=Game.Status.SIGNED, version=F("version") + 1)  # a sign-off
    signed = _list(client, tournament)
    assert signed != before and "Подписан" in signed
    protest = Protest.objects.create(game=game, player=game.seats.first().player, seat=1,
                                     category=Protest.Category.RESULT, text="?", filed_at=timezone.now())
    assert 'data-testid="under-protest"' in _list(client, tournament)
    protest.status = Protest.Status.REJECTED
    protest.decided_at = timezone.now()
    protest.save()
    assert 'data-testid="under-protest"' not in _list(client, tournament)
    Game.objects.filter(pk=game.pk).update(table=7, version=F("version") + 1)  # a correction (an import's)
    assert "стол 7" in _list(client, tournament)
    tournament.name = "Переименованный турнир"
    tournament.save()
    assert "Переименованный турнир" in _list(client, tournament)


def test_the_staffs_list_and_the_publics_never_cross(client, tournament):
    hidden = tournament.games.get(number=4)
    Game.objects.filter(pk=hidden.pk).update(results_hidden=True)
    judge = UserFactory(username="table-judge")
    MembershipFactory(club=tournament.club, user=judge, role=Membership.Role.JUDGE)
    link = reverse("games:game_detail", args=[hidden.pk])
    for order in (["public", "staff"], ["staff", "public"], ["public", "staff"]):
        for who in order:
            client.logout()
            if who == "staff":
                client.force_login(judge)
            shown = _list(client, tournament)
            assert (f'href="{link}"' in shown) is (who == "staff"), who
            assert ('data-testid="result-hidden"' in shown) is (who == "staff"), who
    Game.objects.filter(pk=hidden.pk).update(results_hidden=False)  # the round shown
    client.logout()
    assert f'href="{link}"' in _list(client, tournament)
