"""The night being played is announced in the morning: until then its kill and best move are the staff's."""

import pytest
from django.urls import reverse

from games.models import Day, Game, Night
from games.permissions import can_see_secrets
from games.protocol.selectors import protocol_view, with_protocol
from games.rules.flow import KILLED, Departure
from games.tests.live_fixtures import ROLES, make_cast, seat_everyone

pytestmark = pytest.mark.django_db


def _view(game, user):
    game = with_protocol(Game.objects.filter(pk=game.pk), scores=True).get()
    return protocol_view(game, show_secrets=can_see_secrets(user, game))


def _play_to_night_one(cast):
    game = cast.game
    seat_everyone(game, cast.players, ROLES)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.IN_PROGRESS)
    Day.objects.create(game=game, index=1, nominations=[], out=[])
    Night.objects.create(game=game, index=1, kill=3)
    Game.objects.filter(pk=game.pk).update(best_move=[2, 5, 9])


def test_the_kill_and_best_move_of_the_night_being_played_are_hidden_from_spectators(client):
    cast = make_cast()
    _play_to_night_one(cast)
    from django.contrib.auth.models import AnonymousUser

    public = _view(cast.game, AnonymousUser())
    assert public.nights[0].kill is None and not public.nights[0].announced
    assert public.best_move is None
    assert all(s.left is None or s.left.how != KILLED for s in public.seats)
    staff = _view(cast.game, cast.judge)
    assert staff.nights[0].kill == 3 and staff.nights[0].announced and staff.best_move == [2, 5, 9]
    page = client.get(reverse("games:live", args=[cast.game.pk])).content.decode()
    assert "город спит" in page or "the city sleeps" in page


def test_the_morning_announces_the_night(client):
    cast = make_cast()
    _play_to_night_one(cast)
    Day.objects.create(game=cast.game, index=2, nominations=[], out=[])
    from django.contrib.auth.models import AnonymousUser

    public = _view(cast.game, AnonymousUser())
    assert public.nights[0].kill == 3 and public.nights[0].announced
    assert public.best_move == [2, 5, 9]
    assert public.seats[2].left == Departure(KILLED, "N1")
