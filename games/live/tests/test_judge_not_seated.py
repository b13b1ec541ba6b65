"""A table judge never sits as a player at the table he judges: the seating (tournament participants, the judge's
own seating on his screen, the repeat of the previous table) and the judge assignment (a tournament's table
judge, the exchange of two games' judges) refuse it with a message naming the table and the person, nothing
changed; the wall chart never prints him as the judge of a table he sits at."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from club.services import ServiceError
from club.tests.factories import PlayerFactory
from games.models import Game, Participant, Seat, TournamentJudge
from games.tests.live_fixtures import act, make_cast, seat_everyone
from games.tournaments import services as schedule

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _short_search(monkeypatch):
    monkeypatch.setattr(schedule, "SEARCH_STEPS", 200)


@pytest.fixture
def cast(db):
    """The live cast; the judge also plays: «Бендер» (players[0]) is his player card."""
    c = make_cast()
    c.players += [PlayerFactory(club=c.club, nickname=f"Участник {i:02d}") for i in range(13, 25)]
    c.players[0].user = c.judge
    c.players[0].save()
    return c


def test_a_participant_is_refused_as_a_table_judge_naming_him_and_the_table(client, cast):
    schedule.participant_add(tournament=cast.tournament, by=cast.club_admin, player=cast.players[0])
    client.force_login(cast.club_admin)
    response = client.post(reverse("games:schedule_action", args=[cast.tournament.pk, "judge"]),
                           {"user": cast.judge.pk, "table": 2})
    assert response.status_code == 400
    text = response.content.decode()
    assert "Судья: Бендер играет в этом турнире (участник 1) и не может судить стол 2" in text
    assert not TournamentJudge.objects.filter(user=cast.judge).exists()


def test_a_table_judge_is_refused_as_a_participant_naming_him_and_the_table(cast):
    schedule.judge_set(tournament=cast.tournament, by=cast.club_admin, user=cast.judge, table=1)
    with pytest.raises(ServiceError, match=r"Бендер.*1|1.*Бендер"):
        schedule.participant_add(tournament=cast.tournament, by=cast.club_admin, player=cast.players[0])
    with pytest.raises(ServiceError, match="Бендер"):
        schedule.participants_add(tournament=cast.tournament, by=cast.club_admin, players=cast.players[:20])
    assert not Participant.objects.exists()


def test_the_judge_cannot_seat_himself_at_his_own_table(client, cast):
    game = Game.objects.create(club=cast.club, evening=None, tournament=cast.tournament, ruleset=cast.game.ruleset,
                               number=9, table=3, date="2026-11-28", judge=cast.judge)
    client.force_login(cast.judge)
    response = act(client, game, "seat", seat=4, player_id=cast.players[0].pk)
    text = response.content.decode()
    assert "Бендер" in text and "Стол 3" in text
    assert not Seat.objects.filter(game=game).exists()
    # another player is seated as usual
    act(client, game, "seat", seat=4, player_id=cast.players[1].pk)
    assert Seat.objects.filter(game=game, number=4, player=cast.players[1]).exists()


def test_the_previous_tables_players_are_not_repeated_onto_their_own_judge(client, cast):
    previous = Game.objects.create(club=cast.club, tournament=cast.tournament, ruleset=cast.game.ruleset, number=8,
                                   table=3, date="2026-11-28", judge=cast.other_judge,
                                   status=Game.Status.FINISHED)
    seat_everyone(previous, cast.players)
    game = Game.objects.create(club=cast.club, tournament=cast.tournament, ruleset=cast.game.ruleset, number=9,
                               table=3, date="2026-11-28", judge=cast.judge)
    client.force_login(cast.judge)
    text = act(client, game, "seats_repeat").content.decode()
    assert "Бендер" in text and "Стол 3" in text
    assert not Seat.objects.filter(game=game).exists()


def test_exchanging_judges_refuses_to_put_a_judge_over_his_own_seat(cast):
    """«judge» judges game 1 at table 1; his own card «Бендер» plays game 2 at table 2: he is not moved there."""
    other = Game.objects.get(tournament=cast.tournament, number=2)
    seat_everyone(cast.game, cast.players[10:20])
    seat_everyone(other, cast.players[:10])
    Game.objects.filter(pk__in=[cast.game.pk, other.pk]).update(round=1)
    for a, b in ((cast.game, other), (other, cast.game)):
        with pytest.raises(ServiceError, match="Стол 2: Бендер судит этот стол"):
            schedule.judges_swap(game_a=a, game_b=b, by=cast.club_admin)
    cast.game.refresh_from_db()
    other.refresh_from_db()
    assert (cast.game.judge, other.judge) == (cast.judge, cast.other_judge)


def test_the_wall_chart_never_prints_a_judge_at_the_table_he_sits_at(client, cast):
    """A seating stored before the refusals (or by hand): the chart leaves the table's judge out."""
    Game.objects.filter(tournament=cast.tournament).update(round=1)
    seat_everyone(cast.game, cast.players)  # the judge's own card at seat 1 of his table
    other = Game.objects.get(tournament=cast.tournament, number=2)
    seat_everyone(other, cast.players[10:20])
    cast.judge.first_name = "Остап"
    cast.judge.save()
    Game.objects.filter(pk=other.pk).update(judge_name="other_judge")
    schedule.schedule_publish(tournament=cast.tournament, by=cast.club_admin)
    pdf = client.get(reverse("games:round_seating_pdf", args=[cast.tournament.pk, 1]))
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Стол 1" in text and "Стол 2" in text
    table_1 = text[text.index("Стол 1"):text.index("Стол 2")] if text.index("Стол 1") < text.index("Стол 2") \
        else text[text.index("Стол 1"):]
    assert "Судья" not in table_1
    page = client.get(reverse("games:tournament_schedule", args=[cast.tournament.pk])).content.decode()
    assert "Судья: Бендер" not in page
