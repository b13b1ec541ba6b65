"""Who may write the live protocol: every action checks can_edit_protocol on the server."""

import pytest
from django.urls import reverse

from games.models import Game, GameAction
from games.tests.live_fixtures import act

pytestmark = pytest.mark.django_db

DENIED = ["outsider", "player", "other_judge"]
ALLOWED = ["judge", "head_judge", "club_admin"]


@pytest.mark.parametrize("who", DENIED)
def test_a_user_who_is_not_the_judge_staff_cannot_write(live, client, who):
    client.force_login(getattr(live, who))
    response = act(client, live.game, "seat", seat=1, nickname="Бендер")
    assert response.status_code == 403
    assert not live.game.seats.exists()
    assert not GameAction.objects.filter(game=live.game).exists()
    assert client.get(reverse("games:judge", args=[live.game.pk])).status_code == 403


def test_an_anonymous_visitor_is_sent_to_log_in_and_nothing_is_written(live, client):
    response = act(client, live.game, "seat", seat=1, nickname="Бендер")
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not live.game.seats.exists()


@pytest.mark.parametrize("who", ALLOWED)
def test_the_table_judge_the_head_judge_and_a_club_admin_may_write(live, client, who):
    client.force_login(getattr(live, who))
    assert client.get(reverse("games:judge", args=[live.game.pk])).status_code == 200
    response = act(client, live.game, "seat", seat=1, nickname="Бендер")
    assert response.status_code == 200
    assert live.game.seats.get().player.nickname == "Бендер"
    action = GameAction.objects.get(game=live.game)
    assert action.by == getattr(live, who) and action.kind == "seat"


def test_the_judge_of_another_table_may_write_only_his_own_game(live, client):
    client.force_login(live.other_judge)
    own = Game.objects.get(tournament=live.tournament, number=2)
    assert act(client, own, "seat", seat=1, nickname="Бендер").status_code == 200
    assert act(client, live.game, "seat", seat=1, nickname="Бендер").status_code == 403


def test_the_service_itself_refuses_a_stranger(live):
    from django.core.exceptions import PermissionDenied

    from games.live.apply import live_apply

    with pytest.raises(PermissionDenied):
        live_apply(game_id=live.game.pk, by=live.outsider, kind="seat", payload={"seat": 1, "nickname": "Бендер"},
                   version=live.game.version, action_id="x1")
    assert not live.game.seats.exists()


def test_the_audit_trail_is_shown_to_the_staff_only(live, client):
    client.force_login(live.judge)
    act(client, live.game, "seat", seat=1, nickname="Бендер")
    assert 'data-testid="action-log"' in client.get(reverse("games:game_detail", args=[live.game.pk])).content.decode()
    client.force_login(live.outsider)
    assert 'data-testid="action-log"' not in client.get(
        reverse("games:game_detail", args=[live.game.pk])).content.decode()
