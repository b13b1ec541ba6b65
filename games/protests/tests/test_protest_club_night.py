"""Protests of a club night's game under the cml rules: a club night has no СК, so the decision form does not ask
for its duty representative and a reversal is decided without one (a tournament still needs him); a head judge who
played in the game is refused as a table judge is, with the reason, and a club admin decides instead."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import translation

from club.models import Player
from games.models import ClubEvening, Game, Protest
from games.protests.services import ProtestError, protest_decide, protest_file
from games.tests.protest_fixtures import NICKS, fresh, minutes_after_end, protest_cast

pytestmark = pytest.mark.django_db


def _file(cast) -> Protest:
    return protest_file(game=fresh(cast.game), by=cast.participant, category="non_game_advantage",
                        text="Seat 8 peeked at night (II.2.10); the video shows it.",
                        now=minutes_after_end(cast.game, 7))


@pytest.fixture
def club_night():
    """docs/rules.md Ex 18's game, played at a club night (no tournament: the club's head judge reviews)."""
    cast = protest_cast(extra_games=False)
    evening = ClubEvening.objects.create(club=cast.club, date=dt.date(2026, 11, 28), ruleset=cast.game.ruleset)
    Game.objects.filter(pk=cast.game.pk).update(tournament=None, evening=evening)
    cast.game = fresh(cast.game)
    return cast


def test_the_decision_form_of_a_club_night_does_not_ask_for_the_sk(client, club_night):
    protest = _file(club_night)
    client.force_login(club_night.head_judge)
    html = client.get(reverse("games:protest_detail", args=[protest.pk])).content.decode()
    assert 'name="decision"' in html  # the head judge's decision form is there
    assert 'name="sk_representative"' not in html and "СК" not in html


def test_a_club_nights_reversal_needs_no_sk_but_a_tournaments_does(club_night):
    protest = _file(club_night)
    protest_decide(protest=protest, by=club_night.head_judge, decision="uphold", explanation="the video (App. l.544)",
                   outcomes=[{"kind": "reverse_result", "result": "red"}])
    assert fresh(club_night.game).result == "red"
    assert Protest.objects.get(pk=protest.pk).status == Protest.Status.UPHELD


def test_a_tournaments_reversal_still_needs_the_sk():
    cast = protest_cast(extra_games=False)
    protest = _file(cast)
    with pytest.raises(ProtestError, match="СК"):
        protest_decide(protest=protest, by=cast.head_judge, decision="uphold", explanation="the video",
                       outcomes=[{"kind": "reverse_result", "result": "red"}])


def test_a_head_judge_who_played_in_the_game_is_refused_with_the_reason_and_a_club_admin_decides(client, club_night):
    seat3 = Player.objects.get(club=club_night.club, nickname=NICKS[2])
    seat3.user = club_night.head_judge  # the club's head judge played at seat 3
    seat3.save()
    protest = _file(club_night)
    with translation.override("ru"), pytest.raises(PermissionDenied, match="Вы играли в этой игре"):
        protest_decide(protest=protest, by=club_night.head_judge, decision="reject", explanation="x")
    client.force_login(club_night.head_judge)
    response = client.post(reverse("games:protest_decide", args=[protest.pk]),
                           {"decision": "reject", "explanation": "x"})
    assert response.status_code == 403 and "Вы играли в этой игре" in response.content.decode()
    assert Protest.objects.get(pk=protest.pk).status == Protest.Status.PENDING
    decided = protest_decide(protest=protest, by=club_night.club_admin, decision="reject", explanation="l.518")
    assert decided.decided_by == club_night.club_admin


def test_a_tournaments_head_judge_who_played_is_refused_too():
    cast = protest_cast(extra_games=False)
    seat3 = Player.objects.get(club=cast.club, nickname=NICKS[2])
    seat3.user = cast.head_judge
    seat3.save()
    protest = _file(cast)
    with pytest.raises(PermissionDenied, match="Вы играли в этой игре"):
        protest_decide(protest=protest, by=cast.head_judge, decision="reject", explanation="x")
    assert protest_decide(protest=protest, by=cast.club_admin, decision="reject", explanation="l.518").decided_by \
        == cast.club_admin
