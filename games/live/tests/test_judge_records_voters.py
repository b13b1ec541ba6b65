"""The club's choice "record who votes" (Club.judge_records_voters): a round entered by the raised hands — the rest go
to the last candidate — a re-vote and the lift vote by hands; stored as the day's voters (docs/rules.md I47–I49),
refused when a hand is not at the table or names no candidate, undone with the round; the screen shows the hands'
board instead of the keypad."""

import pytest

from games.models import Game
from games.protocol.selectors import protocol_of, with_protocol
from games.rules.validate import validate
from games.tests.live_fixtures import ROLES, act, seat_everyone

pytestmark = pytest.mark.django_db


def started(live, client, *, records: bool = True):
    live.club.judge_records_voters = records
    live.club.save(update_fields=["judge_records_voters"])
    seat_everyone(live.game, live.players, ROLES)
    client.force_login(live.judge)
    assert act(client, live.game, "start").status_code == 200
    live.game.refresh_from_db()
    return live.game


def test_a_tie_by_hands_then_a_revote_and_a_lift_by_hands(live, client):
    game = started(live, client)
    act(client, game, "nominate", by=1, nominee=5)
    act(client, game, "nominate", by=2, nominee=4)
    for _ in range(10):
        act(client, game, "speech")
    page = client.get(f"/games/{game.pk}/judge/").content.decode()
    assert 'data-testid="hand-board"' in page and 'data-testid="keypad"' not in page
    # 1, 3, 6, 7, 8 against 5; nobody else raised a hand: 5 : 5, the five others for 4 (the last)
    answer = act(client, game, "votes", by_hands=1, h1=5, h3=5, h6=5, h7=5, h8=5)
    assert answer.status_code == 200, answer.content.decode()
    day = game.days.get()
    assert day.votes == [{"seat": 5, "votes": 5}, {"seat": 4, "votes": 5}]
    assert day.voters == {"voters": {"1": 5, "3": 5, "6": 5, "7": 5, "8": 5}}
    act(client, game, "votes", by_hands=1, h1=5, h3=5, h6=5, h7=5, h8=5, h10=4)  # a hand for the last counts too
    act(client, game, "lift", by_hands=1, h1=1, h3=1, h6=1, h7=1, h8=1, h10=1)  # 6 of 10 lift both
    day = game.days.get()
    assert day.revotes == [[{"seat": 5, "votes": 5}, {"seat": 4, "votes": 5}]]
    assert day.voters["revote_voters"] == [{"1": 5, "3": 5, "6": 5, "7": 5, "8": 5, "10": 4}]
    assert day.voters["lift_voters"] == {str(n): n in (1, 3, 6, 7, 8, 10) for n in range(1, 11)}
    assert day.lift_for == 6 and sorted(day.out) == [4, 5]
    protocol = protocol_of(with_protocol(Game.objects.filter(pk=game.pk)).get())
    assert protocol.days[0].voters == {1: 5, 3: 5, 6: 5, 7: 5, 8: 5}
    assert [p for p in validate(protocol, live.game.ruleset.ruleset(), finished=False) if p.is_error] == []


def test_a_hand_not_at_the_table_or_for_no_candidate_is_refused_and_nothing_changes(live, client):
    game = started(live, client)
    act(client, game, "nominate", by=1, nominee=5)
    act(client, game, "nominate", by=2, nominee=4)
    answer = act(client, game, "votes", by_hands=1, h1=3)
    assert answer.status_code == 422 and "votes for one of the candidates 5, 4" in answer.content.decode()
    assert game.days.get().votes is None and game.days.get().voters is None
    act(client, game, "votes", by_hands=1, h1=5, h2=5, h3=5, h6=5, h7=5, h8=5)  # 5 leaves
    act(client, game, "night")
    act(client, game, "kill", seat=1)
    act(client, game, "day")
    act(client, game, "nominate", by=2, nominee=4)
    act(client, game, "nominate", by=3, nominee=9)
    answer = act(client, game, "votes", by_hands=1, h5=4)
    assert answer.status_code == 422 and "seat 5 is not there" in answer.content.decode()
    assert game.days.get(index=2).voters is None


def test_undo_takes_the_hands_back_with_the_round(live, client):
    game = started(live, client)
    act(client, game, "nominate", by=1, nominee=5)
    act(client, game, "nominate", by=2, nominee=4)
    act(client, game, "votes", by_hands=1, h1=5, h2=5, h3=5, h6=5, h7=5, h8=5)
    assert game.days.get().out == [5]
    last = game.actions.exclude(kind="undo").order_by("-seq").first()
    assert act(client, game, "undo", seq=last.seq).status_code == 200
    day = game.days.get()
    assert day.votes is None and day.voters is None and day.out == []


def test_without_the_clubs_choice_the_keypad_stays(live, client):
    game = started(live, client, records=False)
    act(client, game, "nominate", by=1, nominee=5)
    act(client, game, "nominate", by=2, nominee=4)
    for _ in range(10):
        act(client, game, "speech")
    page = client.get(f"/games/{game.pk}/judge/").content.decode()
    assert 'data-testid="keypad"' in page and 'data-testid="hand-board"' not in page
    act(client, game, "votes", v5=7)
    assert game.days.get().voters is None
