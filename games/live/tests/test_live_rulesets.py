"""Rule-set differences on the judge's screen: who opens a day (000 4.3.1 vs 003 l.43–45), what a 3rd foul costs
(000 D6.4 + S7.4/S7.8, 003 l.73, 002 I.8.4) and the head judge's approval of a big judge extra (000 T6.1.3)."""

from dataclasses import replace

import pytest
from django.urls import reverse

from games.live.state import speech_order
from games.models import Day as DayRow
from games.models import Game, GameAction, JudgeExtra, RuleSetVersion, Seat
from games.rules.facts import (
    SPEECH_KEPT,
    SPEECH_LOST,
    SPEECH_SHORT,
    first_speaker,
    speaking_order,
    third_foul_day,
    third_foul_speech,
)
from games.rules.protocol import Day, Night, Protocol, SeatEntry
from games.rules.ruleset import CML, KAMCHATKA, MOSCOW, SPEECH_SEAT_OF_DAY, XCRAFT, RuleSet
from games.rulesets.forms import RuleSetForm
from games.tests.live_fixtures import ROLES, act, seat_everyone

pytestmark = pytest.mark.django_db


def table(*, fouls: dict[int, int] | None = None, days=(), nights=()) -> Protocol:
    return Protocol(seats=[SeatEntry(n, f"p{n}", ROLES[n], (fouls or {}).get(n, 0)) for n in range(1, 11)],
                    days=[Day(nominations=[], out=list(out)) for out in days],
                    nights=[Night(kill=kill) for kill in nights])


# ------------------------------------------------------------------------------------ speaking order (pure)


def test_day_one_opens_with_seat_one_everywhere():
    for ruleset in (XCRAFT, CML, KAMCHATKA, MOSCOW):
        assert first_speaker(table(days=[[]]), ruleset, 1) == 1
        assert speaking_order(table(days=[[]]), ruleset, 1) == list(range(1, 11))


def test_after_misses_both_rules_open_day_two_with_seat_two_and_day_three_with_seat_three():
    protocol = table(days=[[], [], []], nights=[None, None])
    for ruleset in (XCRAFT, MOSCOW):
        assert [first_speaker(protocol, ruleset, d) for d in (1, 2, 3)] == [1, 2, 3]


def test_a_skipped_first_speaker_shifts_the_000_rotation_but_not_the_003_one():
    # Night 1 kills seat 2: Day 2 opens with 3 under both; Day 3 with the next after 3 (000 4.3.1) = 4, but with
    # seat 3, the seat of the day, under 003 l.43–45.
    protocol = table(days=[[], [], []], nights=[2, None])
    assert first_speaker(protocol, XCRAFT, 2) == 3 and first_speaker(protocol, MOSCOW, 2) == 3
    assert first_speaker(protocol, XCRAFT, 3) == 4
    assert first_speaker(protocol, MOSCOW, 3) == 3
    assert speaking_order(protocol, MOSCOW, 3) == [3, 4, 5, 6, 7, 8, 9, 10, 1]
    assert speaking_order(protocol, XCRAFT, 3) == [4, 5, 6, 7, 8, 9, 10, 1, 3]


def test_the_seat_of_the_day_passes_the_word_to_the_next_living_seat():
    # Day 1 votes out 3; Night 1 kills 2; Night 2 kills 4: Day 3 (seat 3 gone) opens with 5 under 003.
    protocol = table(days=[[3], [], []], nights=[2, 4])
    assert first_speaker(protocol, MOSCOW, 3) == 5


def test_speech_start_is_a_rule_set_field_that_round_trips_and_is_on_the_edit_form():
    assert MOSCOW.speech_start == SPEECH_SEAT_OF_DAY
    assert XCRAFT.speech_start == CML.speech_start == KAMCHATKA.speech_start == "after_previous_first"
    club_copy = replace(XCRAFT, slug="club-1-xcraft", speech_start=SPEECH_SEAT_OF_DAY)
    assert RuleSet.from_dict(club_copy.to_dict()) == club_copy
    form = RuleSetForm(initial=RuleSetForm.initial_from(MOSCOW.name, MOSCOW))
    assert form["speech_start"].value() == SPEECH_SEAT_OF_DAY
    data = {k: ("on" if v is True else v) for k, v in RuleSetForm.initial_from("Наши", XCRAFT).items()
            if v is not None and v is not False}
    data["speech_start"] = SPEECH_SEAT_OF_DAY
    bound = RuleSetForm(data=data)
    assert bound.is_valid(), bound.errors
    assert RuleSet.from_dict(dict(XCRAFT.to_dict(), **bound.params())).speech_start == SPEECH_SEAT_OF_DAY


def test_the_moscow_preset_in_the_database_opens_day_three_with_seat_three():
    stored = RuleSetVersion.objects.get(slug="moscow", is_preset=True).ruleset()
    assert first_speaker(table(days=[[], [], []], nights=[2, None]), stored, 3) == 3


# ------------------------------------------------------------------------------------ the 3rd foul (pure)


def test_the_third_foul_costs_todays_speech_before_it_and_the_next_days_during_or_after_it():
    for ruleset in (XCRAFT, MOSCOW):
        assert third_foul_day(ruleset, phase="D2", spoke_or_speaking=False) == 2
        assert third_foul_day(ruleset, phase="D2", spoke_or_speaking=True) == 3
        assert third_foul_day(ruleset, phase="N2", spoke_or_speaking=False) == 3
    assert third_foul_day(CML, phase="D2", spoke_or_speaking=False) is None  # 002 I.8.4


def test_what_the_lost_speech_becomes_per_rule_set():
    assert third_foul_speech(XCRAFT, alive=7) == (SPEECH_LOST, "000 D6.4")
    assert third_foul_speech(XCRAFT, alive=4) == (SPEECH_SHORT, "000 S7.8")
    assert third_foul_speech(XCRAFT, alive=3) == (SPEECH_SHORT, "000 S7.8")
    assert third_foul_speech(MOSCOW, alive=4) == (SPEECH_LOST, "003 l.73")
    assert third_foul_speech(CML, alive=7) == (SPEECH_KEPT, "002 I.8.4")


def test_with_four_players_left_000_gives_30_seconds_and_003_skips_the_speech():
    # D1 out 1, N1 kill 2, D2 out 3, N2 kill 4, D3 out 5, N3 kill 6: Day 4 has 7, 8, 9, 10.
    protocol = table(fouls={8: 3}, days=[[1], [3], [5], []], nights=[2, 4, 6])
    stored = {"spoken": [7], "granted": [], "lost": {8: 4}}  # seat 7 spoke; seat 8's 3rd foul costs Day 4
    short = speech_order(protocol, 4, XCRAFT, **stored)
    assert short.current == 8 and "000 S7.8" in short.short[8] and not short.silenced
    lost = speech_order(protocol, 4, MOSCOW, **stored)
    assert lost.current == 9 and "003 l.73" in lost.silenced[8]


# ------------------------------------------------------------------------------------ the 3rd foul (live)


def _with_ruleset(live, slug):
    live.game.ruleset = RuleSetVersion.objects.get(slug=slug, club__isnull=True)
    live.game.save()


def started(live, client, slug):
    _with_ruleset(live, slug)
    seat_everyone(live.game, live.players, ROLES)
    client.force_login(live.judge)
    assert act(client, live.game, "start").status_code == 200
    return live.game


def board(client, game) -> str:
    return client.get(reverse("games:judge", args=[game.pk])).content.decode()


def speaker(client, game) -> int:
    import re

    return int(re.search(r'data-testid="speaker">(\d+)<', board(client, game)).group(1))


@pytest.mark.parametrize("slug", ["xcraft", "moscow"])
def test_a_third_foul_before_the_speech_skips_it_today_and_the_judge_may_give_the_word(live, client, slug):
    game = started(live, client, slug)
    for _ in range(3):
        response = act(client, game, "foul", seat=2, delta=1)
    body = response.content.decode()
    assert response["HX-Retarget"] == "#board"  # the speaking order re-renders with the 3rd foul
    assert ("000 D6.4" if slug == "xcraft" else "003 l.73") in body and "Day 1" in body
    assert GameAction.objects.filter(game=game, kind="foul").order_by("-seq").first().payload["silenced_day"] == 1
    assert Seat.objects.get(game=game, number=2).speech_lost_day == 1  # the state is on the seat, not in the log
    act(client, game, "speech")  # seat 1
    assert DayRow.objects.get(game=game, index=1).spoken == [1]
    assert speaker(client, game) == 3  # seat 2 is skipped
    page = board(client, game)
    assert 'data-testid="silenced-2"' in page and "loses today&#x27;s speech" in page
    granted = act(client, game, "speech_grant", seat=2)
    assert granted.status_code == 200 and "given the word" in granted.content.decode()
    assert speaker(client, game) == 2
    refused = act(client, game, "speech_grant", seat=5)
    assert refused.status_code == 422 and "has not lost" in refused.content.decode()
    assert DayRow.objects.get(game=game, index=1).granted == [2]
    act(client, game, "undo")  # the refused grant wrote nothing: this undoes the grant
    assert speaker(client, game) == 3
    assert DayRow.objects.get(game=game, index=1).granted == []


def test_a_third_foul_during_the_speech_costs_the_next_days_speech(live, client):
    game = started(live, client, "moscow")
    for _ in range(3):
        act(client, game, "foul", seat=1, delta=1)  # seat 1 is speaking
    assert GameAction.objects.filter(game=game, kind="foul").order_by("-seq").first().payload["silenced_day"] == 2
    assert Seat.objects.get(game=game, number=1).speech_lost_day == 2
    assert speaker(client, game) == 1
    assert "Day 2" in board(client, game)


def test_under_cml_the_third_foul_costs_nothing(live, client):
    game = started(live, client, "cml")
    for _ in range(3):
        response = act(client, game, "foul", seat=2, delta=1)
    assert "002 I.8.4" in response.content.decode()
    act(client, game, "speech")
    assert speaker(client, game) == 2
    assert "silenced_day" not in GameAction.objects.filter(game=game, kind="foul").order_by("-seq").first().payload
    assert Seat.objects.get(game=game, number=2).speech_lost_day is None


def test_taking_the_third_foul_back_gives_the_speech_back(live, client):
    game = started(live, client, "xcraft")
    for _ in range(3):
        act(client, game, "foul", seat=2, delta=1)
    act(client, game, "foul", seat=2, delta=-1)
    assert Seat.objects.get(game=game, number=2).speech_lost_day is None
    act(client, game, "speech")
    assert speaker(client, game) == 2


# ------------------------------------------------------------------------------------ head judge's approval


def finished_with_extra(live, client, points="0.6"):
    game = started(live, client, "xcraft")
    act(client, game, "speech")
    act(client, game, "nominate", by=1, nominee=5)
    act(client, game, "nominate", by=2, nominee=4)
    act(client, game, "votes", v5=7)
    act(client, game, "night")
    act(client, game, "kill", seat=1)
    act(client, game, "day")
    act(client, game, "nominate", by=3, nominee=9)
    act(client, game, "nominate", by=4, nominee=2)
    act(client, game, "votes", v9=6)
    act(client, game, "night")
    act(client, game, "kill", seat="")
    act(client, game, "day")
    act(client, game, "nominate", by=3, nominee=2)
    act(client, game, "nominate", by=4, nominee=6)
    act(client, game, "votes", v2=7)
    assert act(client, game, "result", result="red").status_code == 200, board(client, game)
    assert act(client, game, "extra", seat=7, points=points, note="нашёл чёрного").status_code == 200
    return game


def test_a_big_judge_extra_waits_for_the_head_judge_and_blocks_the_signature(live, client):
    game = finished_with_extra(live, client)
    extra = JudgeExtra.objects.get(game=game, seat=7)
    assert not extra.approved
    page = board(client, game)
    assert 'data-testid="awaiting-approval"' in page and 'data-testid="approve-7"' not in page
    refused = act(client, game, "sign")
    assert refused.status_code == 422 and "000 T6.1.3" in refused.content.decode()
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    # The table judge may not approve his own extra (the server checks, not only the missing button).
    assert act(client, game, "extra_approve", seat=7).status_code == 403
    assert not JudgeExtra.objects.get(game=game, seat=7).approved
    client.force_login(live.head_judge)
    assert 'data-testid="approve-7"' in board(client, game)
    approved = act(client, game, "extra_approve", seat=7)
    assert approved.status_code == 200 and "000 T6.1.3" in approved.content.decode()
    assert JudgeExtra.objects.get(game=game, seat=7).approved
    audit = GameAction.objects.filter(game=game, kind="extra_approve").get()
    assert audit.by == live.head_judge and audit.payload["seat"] == "7"
    client.force_login(live.judge)
    assert act(client, game, "sign").status_code == 200
    assert Game.objects.get(pk=game.pk).status == Game.Status.SIGNED


def test_a_club_admin_may_approve_and_a_small_extra_needs_no_approval(live, client):
    game = finished_with_extra(live, client)
    client.force_login(live.club_admin)
    assert act(client, game, "extra_approve", seat=7).status_code == 200
    again = act(client, game, "extra_approve", seat=7)
    assert again.status_code == 422 and "already approved" in again.content.decode()
    client.force_login(live.judge)
    # Changing the value makes it a new extra: 0.4 needs no approval, so signing goes through.
    assert act(client, game, "extra", seat=7, points="0.4", note="нашёл чёрного").status_code == 200
    assert 'data-testid="awaiting-approval"' not in board(client, game)
    assert act(client, game, "sign").status_code == 200
