"""The club's home page, the games' part: the coming events (with a sign-up or without), games played now with their
spectator page, the latest results named with their event and coloured by result, a hidden round kept hidden."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.formats import date_format

from games.models import ClubEvening, Game
from games.tests.signup_fixtures import build_cast

pytestmark = pytest.mark.django_db


def _game(cast, number, *, status, result="", hidden=False, table=1, tournament=True):
    owner = {"tournament": cast.tournament} if tournament else {"evening": cast.evening}
    return Game.objects.create(club=cast.club, ruleset=cast.tournament.ruleset, number=number, table=table,
                               date=timezone.localdate(), status=status, result=result, results_hidden=hidden,
                               ended_at=timezone.now() if result else None, **owner)


def test_the_latest_results_name_their_event_and_carry_the_result_colour(db):
    cast = build_cast()
    _game(cast, 36, status=Game.Status.SIGNED, result="black", table=2)
    _game(cast, 1, status=Game.Status.FINISHED, result="red", tournament=False)
    html = Client().get("/").content.decode()
    assert "Кубок «Полночь» — стол 2, игра 36" in html and "Вечер пятницы — стол 1, игра 1" in html
    assert "result-black" in html and "result-red" in html and "Победа чёрных" in html


def test_a_game_in_play_is_shown_with_its_spectator_link_unless_its_round_is_hidden(db):
    cast = build_cast()
    shown = _game(cast, 5, status=Game.Status.IN_PROGRESS, table=3)
    hidden = _game(cast, 6, status=Game.Status.IN_PROGRESS, table=4, hidden=True)
    html = Client().get("/").content.decode()
    assert f'href="/games/{shown.pk}/live/"' in html and f"/games/{hidden.pk}/live/" not in html


def test_a_hidden_rounds_game_is_not_listed_on_the_home_page_until_the_round_is_shown(db):
    cast = build_cast()
    game = _game(cast, 7, status=Game.Status.FINISHED, result="red", hidden=True)
    html = Client().get("/").content.decode()
    # listed, even with its result hidden, it would tell when and in which order the hidden games end
    assert 'data-testid="result-hidden"' not in html and f'href="/games/{game.pk}/"' not in html
    assert "Победа красных" not in html and "result-red" not in html
    Game.objects.filter(pk=game.pk).update(results_hidden=False)  # the round is shown
    html = Client().get("/").content.decode()
    assert f'href="/games/{game.pk}/"' in html and "result-red" in html


def test_what_is_on_lists_the_coming_events_without_a_sign_up_with_date_time_and_place(db):
    cast = build_cast()
    today = timezone.localdate()
    night = ClubEvening.objects.create(club=cast.club, date=today + dt.timedelta(days=7), name="Рейтинговый вечер",
                                       ruleset=cast.evening.ruleset, start_time=dt.time(19, 30), place="Тверская, 7")
    cast.tournament.start_date, cast.tournament.place = today + dt.timedelta(days=20), "Арбат, 1"
    cast.tournament.save()
    ClubEvening.objects.create(club=cast.club, date=today - dt.timedelta(days=1), name="Вчерашний вечер",
                               ruleset=cast.evening.ruleset)
    html = Client().get("/").content.decode()
    events = html[html.index('data-testid="home-events"'):]
    events = events[:events.index("</section>")]
    # tonight's evening is its sign-up card; next week's night and the cup are listed after it, soonest first
    assert events.count('data-testid="signup-card"') == 1 and events.count('data-testid="home-event"') == 2
    assert (events.index("Вечер пятницы") < events.index("Рейтинговый вечер") < events.index("Кубок «Полночь»"))
    when = date_format(night.date, "j E Y")
    assert f"{when}, 19:30" in events and "Тверская, 7" in events and "Арбат, 1" in events
    assert f'href="/games/evenings/{night.pk}/"' in events and f'href="/games/tournaments/{cast.tournament.pk}/"' in events
    assert "Вчерашний вечер" not in events
    # no button and no count for an event that takes no sign-up
    listed = events[events.index('data-testid="home-event"'):]
    assert "signup-count" not in listed and "<button" not in listed and "signup-login" not in listed


def test_the_organiser_gives_a_new_night_and_cup_their_time_and_place_and_the_home_page_lists_them(db):
    cast = build_cast()
    client = Client()
    client.force_login(cast.admin)
    day = timezone.localdate() + dt.timedelta(days=3)
    response = client.post("/games/evenings/new/", {"date": day.isoformat(), "name": "Вечер новичков",
                                                    "start_time": "18:45", "place": " Арбат, 1 ",
                                                    "ruleset": cast.evening.ruleset_id})
    assert response.status_code == 302
    night = ClubEvening.objects.get(name="Вечер новичков")
    assert (night.start_time, night.place) == (dt.time(18, 45), "Арбат, 1")
    response = client.post("/games/tournaments/new/", {"name": "Кубок новичков", "start_date": day.isoformat(),
                                                       "start_time": "11:00", "place": "Тверская, 7",
                                                       "ruleset": cast.evening.ruleset_id})
    assert response.status_code == 302
    html = Client().get("/").content.decode()
    assert f"{date_format(day, 'j E Y')}, 18:45" in html and "Арбат, 1" in html
    assert f"{date_format(day, 'j E Y')}, 11:00" in html and html.index("Кубок новичков") < html.index("Вечер новичков")
