"""The table judge's undo and result entry never reach past a protest decision or the finish; "Стоп игра" is
recorded once (a re-entered result keeps it)."""

import pytest

from games.models import Game, GameAction, Protest
from games.protests.services import protest_decide, protest_file
from games.tests.live_fixtures import ROLES, act, seat_everyone

pytestmark = pytest.mark.django_db
SK = "Иванов (СК)"


def play_to_red_win(live, client):
    """The whole game of test_live_entry: red wins on Day 3."""
    seat_everyone(live.game, live.players, ROLES)
    client.force_login(live.judge)
    game = live.game
    for kind, payload in [("start", {}), ("speech", {}), ("nominate", {"by": 1, "nominee": 5}),
                          ("nominate", {"by": 2, "nominee": 4}), ("votes", {"v5": 7}), ("night", {}),
                          ("kill", {"seat": 1}), ("best_move", {"seats": "2 5 9"}), ("day", {}),
                          ("nominate", {"by": 3, "nominee": 9}), ("nominate", {"by": 4, "nominee": 2}),
                          ("votes", {"v9": 6}), ("night", {}), ("kill", {"seat": ""}), ("day", {}),
                          ("nominate", {"by": 3, "nominee": 2}), ("night", {}), ("result", {"result": "red"})]:
        response = act(client, game, kind, **payload)
        assert response.status_code == 200, (kind, response.content.decode()[:300])
    return Game.objects.get(pk=game.pk)


def state(game):
    game = Game.objects.get(pk=game.pk)
    return (game.version, game.status, game.result, game.ended_at,
            list(GameAction.objects.filter(game=game).values_list("seq", "kind", "undone")))


def test_after_an_upheld_protest_the_table_judge_can_neither_undo_nor_enter_a_result(live, client):
    game = play_to_red_win(live, client)
    ended = game.ended_at
    protest = protest_file(game=game, by=live.player, category="non_game_advantage", text="seat 8 peeked")
    protest_decide(protest=protest, by=live.head_judge, decision="uphold", sk_representative=SK,
                   explanation="an insurmountable advantage", outcomes=[{"kind": "reverse_result", "result": "black"}])
    before = state(game)
    assert before[2] == "black" and before[3] == ended

    undo = act(client, game, "undo")
    assert undo.status_code == 422 and "protest decision" in undo.content.decode()
    result = act(client, game, "result", result="red")
    assert result.status_code == 422 and "protest" in result.content.decode()
    assert state(game) == before

    # Nor the head judge: the decision is not in the action log, it is final.
    client.force_login(live.head_judge)
    undo = act(client, game, "undo")
    assert undo.status_code == 422 and "protest decision" in undo.content.decode()
    assert state(game) == before
    assert Protest.objects.get(pk=protest.pk).status == Protest.Status.UPHELD


def test_a_rejected_protest_is_a_barrier_too(live, client):
    game = play_to_red_win(live, client)
    protest = protest_file(game=game, by=live.player, category="non_game_advantage", text="seat 8 peeked")
    protest_decide(protest=protest, by=live.head_judge, decision="reject", explanation="no evidence")
    before = state(game)
    client.force_login(live.club_admin)
    assert act(client, game, "undo").status_code == 422
    assert state(game) == before


def test_a_pending_protest_keeps_the_result_for_everyone(live, client):
    game = play_to_red_win(live, client)
    protest_file(game=game, by=live.player, category="non_game_advantage", text="seat 8 peeked")
    before = state(game)
    client.force_login(live.head_judge)
    undo = act(client, game, "undo")
    assert undo.status_code == 422 and "awaits the head judge" in undo.content.decode()
    assert state(game) == before


def test_the_table_judge_cannot_reopen_his_result_the_head_judge_can_and_the_end_stays(live, client):
    game = play_to_red_win(live, client)
    ended = game.ended_at
    before = state(game)
    undo = act(client, game, "undo")
    assert undo.status_code == 422 and "only the head judge" in undo.content.decode()
    assert state(game) == before
    # Entries after the finish stay the table judge's own: an extra, and its undo.
    assert act(client, game, "extra", seat=7, points="0.3", note="good").status_code == 200
    assert act(client, game, "undo").status_code == 200

    client.force_login(live.head_judge)
    assert act(client, game, "undo").status_code == 200  # the head judge reopens the result
    reopened = Game.objects.get(pk=game.pk)
    assert reopened.status == Game.Status.IN_PROGRESS and reopened.ended_at is None
    assert act(client, game, "result", result="red").status_code == 200
    again = Game.objects.get(pk=game.pk)
    assert again.status == Game.Status.FINISHED and again.ended_at == ended  # never moved by a re-entry
