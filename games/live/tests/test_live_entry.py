"""The judge's clicks: rules applied, stale versions refused, retries applied once, invalid input unchanged."""

import re
import uuid

import pytest
from django.urls import reverse

from games.live.apply import live_apply
from games.models import Game, GameAction, Removal, Seat
from games.protocol.selectors import protocol_of, with_protocol
from games.rules.scoring import score_game
from games.tests.live_fixtures import ROLES, act, seat_everyone

pytestmark = pytest.mark.django_db


def started(live, client, roles=ROLES):
    seat_everyone(live.game, live.players, roles)
    client.force_login(live.judge)
    assert act(client, live.game, "start").status_code == 200
    live.game.refresh_from_db()
    return live.game


def fouls(game, seat):
    return Seat.objects.get(game=game, number=seat).fouls


def test_seats_are_picked_by_nickname_and_a_new_player_is_added_inline(live, client):
    client.force_login(live.judge)
    suggest = client.get(reverse("games:judge_players", args=[live.game.pk]), {"nickname": "лис", "seat": 1},
                         HTTP_HX_REQUEST="true")
    assert "Лиса" in suggest.content.decode() and "<html" not in suggest.content.decode()
    assert act(client, live.game, "seat", seat=1, player_id=live.players[3].pk).status_code == 200
    refused = act(client, live.game, "seat", seat=2, nickname="Новенький")
    assert refused.status_code == 422 and not Seat.objects.filter(game=live.game, number=2).exists()
    assert act(client, live.game, "seat", seat=2, nickname="Новенький", create="1").status_code == 200
    assert Seat.objects.get(game=live.game, number=2).player.club == live.club
    twice = act(client, live.game, "seat", seat=3, player_id=live.players[3].pk)
    assert twice.status_code == 422 and "already sits at seat 1" in twice.content.decode()


def test_random_draw_keeps_the_same_players(live, client):
    seat_everyone(live.game, live.players)
    client.force_login(live.judge)
    before = set(live.game.seats.values_list("player_id", flat=True))
    assert act(client, live.game, "seats_draw").status_code == 200
    assert set(live.game.seats.values_list("player_id", flat=True)) == before
    assert sorted(live.game.seats.values_list("number", flat=True)) == list(range(1, 11))


def test_a_third_black_role_is_refused_with_the_clause_and_changes_nothing(live, client):
    seat_everyone(live.game, live.players, {1: "Ч", 2: "Ч"})
    client.force_login(live.judge)
    response = act(client, live.game, "role", seat=3, role="Ч")
    assert response.status_code == 422
    assert "002 I.1.1" in response.content.decode() and "2 × M" in response.content.decode()  # the English letter set (C/M/S/D)
    assert Seat.objects.get(game=live.game, number=3).role == ""
    assert not GameAction.objects.filter(game=live.game).exists()


def test_a_stale_version_is_refused_with_the_current_state(live, client):
    game = started(live, client)
    old = game.version
    assert act(client, game, "foul", seat=4, delta=1, version=old).status_code == 200
    stale = act(client, game, "foul", seat=5, delta=1, version=old)
    assert stale.status_code == 409
    body = stale.content.decode()
    assert "changed on another screen" in body
    assert stale["HX-Retarget"] == "#board" and 'id="board"' in body and f'value="{old + 1}"' in body
    assert fouls(game, 5) == 0 and fouls(game, 4) == 1


def test_a_retried_request_is_applied_once(live, client):
    game = started(live, client)
    version, action_id = game.version, uuid.uuid4().hex
    first = act(client, game, "foul", seat=4, delta=1, version=version, action_id=action_id)
    again = act(client, game, "foul", seat=4, delta=1, version=version, action_id=action_id)
    assert first.status_code == 200 and again.status_code == 200
    assert "Already saved" in again.content.decode()
    assert fouls(game, 4) == 1
    assert GameAction.objects.filter(game=game, kind="foul").count() == 1


def test_fouls_show_their_consequence_and_the_fourth_removes_the_player(live, client):
    live.game.ruleset = live.game.ruleset.__class__.objects.get(slug="xcraft", club__isnull=True)
    live.game.save()
    game = started(live, client)
    for _ in range(2):
        act(client, game, "foul", seat=6, delta=1)
    third = act(client, game, "foul", seat=6, delta=1).content.decode()
    assert "000 D6.4" in third and "loses the next speech" in third
    fourth = act(client, game, "foul", seat=6, delta=1)
    assert "000 D6.5" in fourth.content.decode() and fourth["HX-Retarget"] == "#board"
    assert Removal.objects.get(game=game).seat == 6
    fifth = act(client, game, "foul", seat=6, delta=1)
    assert fifth.status_code == 422 and "no 5th foul" in fifth.content.decode()
    assert fouls(game, 6) == 4 and Removal.objects.filter(game=game).count() == 1


def test_a_disqualified_seat_gets_no_foul_but_a_removed_fourth_foul_can_be_taken_back(live, client):
    game = started(live, client)
    assert act(client, game, "remove", seat=8, reason="disqualified", note="002 II.2.4").status_code == 200
    refused = act(client, game, "foul", seat=8, delta=1)
    assert refused.status_code == 422 and "removed from the game" in refused.content.decode()
    assert fouls(game, 8) == 0
    for _ in range(4):
        assert act(client, game, "foul", seat=3, delta=1).status_code == 200
    assert act(client, game, "foul", seat=3, delta=-1, **{"from": 4}).status_code == 200  # the 4th taken back
    assert fouls(game, 3) == 3 and list(Removal.objects.filter(game=game).values_list("seat", flat=True)) == [8]


def test_votes_over_the_living_players_are_refused(live, client):
    game = started(live, client)
    act(client, game, "nominate", by=1, nominee=5)
    act(client, game, "nominate", by=2, nominee=4)
    response = act(client, game, "votes", v5=8, v4=5)
    assert response.status_code == 422 and "only 10 players" in response.content.decode()
    assert game.days.get().votes is None


def test_the_silent_votes_go_to_the_last_nominee_and_a_tie_goes_to_a_revote_then_a_lift(live, client):
    game = started(live, client)
    act(client, game, "nominate", by=1, nominee=5)
    act(client, game, "nominate", by=2, nominee=4)
    act(client, game, "nominate", by=3, nominee=9)
    assert act(client, game, "votes", v5=4, v4=2).status_code == 200  # 4 silent → seat 9
    day = game.days.get()
    assert day.votes == [{"seat": 5, "votes": 4}, {"seat": 4, "votes": 2}, {"seat": 9, "votes": 4}]
    assert day.out == []
    revote = act(client, game, "votes", v5=5).content.decode()
    assert "lift" in revote
    assert act(client, game, "lift", hands=6).status_code == 200
    assert game.days.get().out == [5, 9]


def test_a_second_nomination_by_the_same_seat_is_refused_with_the_clause(live, client):
    game = started(live, client)
    act(client, game, "nominate", by=1, nominee=5)
    response = act(client, game, "nominate", by=1, nominee=6)
    assert response.status_code == 422 and "002 I.6.9" in response.content.decode()
    withdraw = act(client, game, "withdraw", index=0)
    assert withdraw.status_code == 422 and "cannot be withdrawn" in withdraw.content.decode()
    assert game.days.get().nominations == [{"by": 1, "nominee": 5}]


def test_a_kill_of_a_removed_seat_is_refused(live, client):
    game = started(live, client)
    act(client, game, "remove", seat=8, reason="disqualified", note="002 II.2.4")
    act(client, game, "night")
    response = act(client, game, "kill", seat=8)
    assert response.status_code == 422 and "seat 8" in response.content.decode()
    assert game.nights.get().kill is None


def test_undo_restores_the_last_action(live, client):
    game = started(live, client)
    act(client, game, "nominate", by=1, nominee=5)
    act(client, game, "foul", seat=2, delta=1)
    assert act(client, game, "undo").status_code == 200
    assert fouls(game, 2) == 0
    assert act(client, game, "undo").status_code == 200
    assert game.days.get().nominations == []
    assert GameAction.objects.filter(game=game, undone=True).count() == 2


def test_the_best_move_is_refused_with_the_clause_when_not_entitled(live, client):
    game = started(live, client)
    act(client, game, "night")
    act(client, game, "kill", seat="")  # a miss: nobody has the right
    response = act(client, game, "best_move", seats="2 5 9")
    assert response.status_code == 422 and "only the player killed on Night 1" in response.content.decode()
    assert Game.objects.get(pk=game.pk).best_move is None


def test_a_whole_game_ends_with_the_proposed_result_scores_and_a_read_only_signature(live, client):
    game = started(live, client)
    # Day 1: 5 and 4 nominated, 5 voted out. Night 1: 1 killed, best move 2 5 9.
    act(client, game, "speech")
    act(client, game, "nominate", by=1, nominee=5)
    act(client, game, "nominate", by=2, nominee=4)
    act(client, game, "votes", v5=7)
    act(client, game, "night")
    act(client, game, "kill", seat=1)
    checks = act(client, game, "sheriff_check", seat=9).content.decode()
    assert "black (thumb down)" in checks
    act(client, game, "best_move", seats="2, 5, 9")
    act(client, game, "day")
    act(client, game, "nominate", by=3, nominee=9)
    act(client, game, "nominate", by=4, nominee=2)
    act(client, game, "votes", v9=6)
    act(client, game, "night")
    act(client, game, "kill", seat="")
    act(client, game, "day")
    act(client, game, "nominate", by=3, nominee=2)
    board = act(client, game, "night").content.decode()  # one nominee from Day 2: leaves without a vote
    assert 'data-testid="proposed-result"' in board
    refused = act(client, game, "result", result="black")
    assert refused.status_code == 422
    assert act(client, game, "result", result="red").status_code == 200
    extra = act(client, game, "extra", seat=7, points="0.7", note="found a black")
    assert extra.status_code == 200
    too_much = act(client, game, "extra", seat=3, points="0.3", note="x")
    assert too_much.status_code == 422 and "002 III.4.2" in too_much.content.decode()
    assert act(client, game, "sign").status_code == 200
    game = with_protocol(Game.objects.filter(pk=game.pk), scores=True).get()
    assert game.status == Game.Status.SIGNED and game.signed_by == live.judge and game.ended_at
    protocol = protocol_of(game)
    assert protocol.days[0].out == [5] and protocol.days[1].out == [9] and protocol.days[2].out == [2]
    assert protocol.nights[0].kill == 1 and protocol.best_move == [2, 5, 9] and protocol.result == "red"
    expected = score_game(protocol, game.ruleset.ruleset())
    stored = {s.number: s.total for s in game.seats.all()}
    assert {s.seat: s.total for s in expected.seats} == stored
    locked = act(client, game, "foul", seat=3, delta=1)
    assert locked.status_code == 422 and "read-only" in locked.content.decode()


def test_htmx_answers_are_fragments_and_plain_posts_redirect(live, client):
    game = started(live, client)
    fragment = act(client, game, "foul", seat=3, delta=1).content.decode()
    assert "<html" not in fragment and 'id="fouls-3"' in fragment and 'hx-swap-oob="true"' in fragment
    board = act(client, game, "nominate", by=1, nominee=3).content.decode()
    assert "<html" not in board and board.lstrip().startswith("<div id=\"board\"")
    screen = client.get(reverse("games:judge", args=[game.pk]), HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in screen
    plain = act(client, game, "foul", seat=3, delta=1, htmx=False)
    assert plain.status_code == 302 and plain["Location"] == reverse("games:judge", args=[game.pk])
    assert fouls(game, 3) == 2
    page = client.get(reverse("games:judge", args=[game.pk])).content.decode()
    assert re.search(r'<form method="post" action="/games/\d+/judge/foul/"', page)


def test_one_foul_stays_within_ten_queries(live, client, django_assert_max_num_queries):
    game = started(live, client)
    version = Game.objects.get(pk=game.pk).version
    # 9, and the club's row (its time zone), which a per-process cache (the tests' locmem, gunicorn's workers
    # without Redis) reads on every request: club.cache.kept_where_shared
    with django_assert_max_num_queries(10):
        response = act(client, game, "foul", seat=3, delta=1, version=version)
    assert response.status_code == 200 and fouls(game, 3) == 1


def test_the_service_is_idempotent_without_the_web_layer(live):
    seat_everyone(live.game, live.players, ROLES)
    result = live_apply(game_id=live.game.pk, by=live.judge, kind="start", payload={}, version=1, action_id="a")
    again = live_apply(game_id=live.game.pk, by=live.judge, kind="start", payload={}, version=1, action_id="a")
    assert not result.replayed and again.replayed
    assert Game.objects.get(pk=live.game.pk).version == 2
