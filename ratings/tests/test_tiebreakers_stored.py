"""The stored standings order crafted ties by each tie-breaker of xcraft and cml (docs/rules.md D8, Ex 14).

Every case goes through the real pipeline: protocols → games.protocol.services.scoring.score_games → ratings.standings.services.refresh →
PlayerStats → the standings page. A and B tie on total; only the named tie-breaker separates them.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from club.models import Player
from games.tests.rules_builders import game
from ratings.models import Lot
from ratings.standings.selectors import tournament_standings

from .conftest import make_tournament, store

D = Decimal
DAY = dt.date(2026, 3, 1)
# seats in the builder's layout L1: 1 К, 4 Ш, 6 Д
CITIZEN, SHERIFF, DON = 1, 4, 6


def play(tournament, who: str, seat: int, result: str, **kw):
    """One game of `who` at `seat`; the other nine are one-off fillers, so they never tie with A or B."""
    number = tournament.games.count() + 1
    names = {s: f"{tournament.pk}-{number}-{s}" for s in range(1, 11)}
    names[seat] = who
    return store(tournament, game(result, players=names, **kw), date=DAY, number=number, score=False)


def order_of(tournament):
    rows = [r for r in tournament_standings(tournament) if r.player in ("A", "B")]
    assert rows[0].record.total == rows[1].record.total
    assert rows[1].rank == rows[0].rank + 1
    return [r.player for r in rows], rows[1].decided_by


def score(tournament):
    from games.protocol.services.scoring import score_games

    score_games(tournament=tournament)


def wins(tournament, who, n, seat=CITIZEN):
    for _ in range(n):
        play(tournament, who, seat, "red" if seat in (CITIZEN, SHERIFF) else "black")


@pytest.mark.django_db
def test_xcraft_extras_decide_and_a_dq_is_an_extra_ex14_000_T6_2(club):
    t = make_tournament(club, "X", "xcraft")
    wins(t, "A", 3)
    play(t, "A", CITIZEN, "red", judge={CITIZEN: "0.7"}, approved=(CITIZEN,))
    wins(t, "B", 3)
    play(t, "B", CITIZEN, "red", judge={CITIZEN: "0.2"})
    play(t, "B", CITIZEN, "red", removals=[(CITIZEN, "disqualified", "D2")])
    score(t)
    rows = {r.player: r for r in tournament_standings(t)}
    assert rows["A"].record.total == rows["B"].record.total == D("4.7")
    assert order_of(t) == (["A", "B"], "extras")


@pytest.mark.django_db
def test_cml_literal_iii_14_dq_is_main_so_more_wins_decide_ex14_002_III_14_2(club):
    t = make_tournament(club, "C", "cml")
    wins(t, "A", 3)
    play(t, "A", CITIZEN, "red", judge={CITIZEN: "0.2"})
    wins(t, "B", 2)
    play(t, "B", CITIZEN, "red", judge={CITIZEN: "0.2"})
    play(t, "B", CITIZEN, "red", removals=[(CITIZEN, "disqualified", "D2")])
    play(t, "B", CITIZEN, "red", removals=[(CITIZEN, "disqualified", "D2")])
    score(t)
    rows = {r.player: r for r in tournament_standings(t)}
    assert rows["A"].record.total == rows["B"].record.total == D("4.2")
    assert order_of(t) == (["B", "A"], "wins")


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["xcraft", "cml"])
def test_wins_as_don_or_sheriff_decide_000_T6_2_2_002_III_14_3(club, slug):
    t = make_tournament(club, "T", slug)
    play(t, "A", SHERIFF, "red")
    play(t, "A", DON, "black")
    wins(t, "A", 1)
    wins(t, "B", 3)
    score(t)
    assert order_of(t) == (["A", "B"], "wins_difficult")


@pytest.mark.django_db
def test_cml_extras_on_a_difficult_card_decide_002_III_14_4(club):
    t = make_tournament(club, "T", "cml")
    play(t, "A", SHERIFF, "red", judge={SHERIFF: "0.3"})
    wins(t, "A", 2)
    play(t, "B", SHERIFF, "red")
    play(t, "B", CITIZEN, "red", judge={CITIZEN: "0.3"})
    wins(t, "B", 1)
    score(t)
    assert order_of(t) == (["A", "B"], "extras_difficult")


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["xcraft", "cml"])
def test_first_night_deaths_decide_000_T6_2_3_002_III_14_5(club, slug):
    t = make_tournament(club, "T", slug)
    play(t, "A", CITIZEN, "red", kills=[CITIZEN])
    wins(t, "A", 2)
    wins(t, "B", 3)
    score(t)
    assert order_of(t) == (["A", "B"], "first_night_deaths")


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["xcraft", "cml"])
def test_the_stored_lot_decides_a_full_tie_and_keeps_deciding_000_T6_2_4_002_III_14_6(club, slug, client):
    t = make_tournament(club, "T", slug)
    wins(t, "A", 3)
    wins(t, "B", 3)
    a, b = Player.objects.get(nickname="A"), Player.objects.get(nickname="B")
    Lot.objects.create(tournament=t, player=a, number=2)
    Lot.objects.create(tournament=t, player=b, number=1)
    score(t)
    assert order_of(t) == (["B", "A"], "lot")
    # the lot is drawn once: scoring again (a new game elsewhere in the table) keeps the order
    play(t, "C", CITIZEN, "red")
    score(t)
    assert order_of(t) == (["B", "A"], "lot")
    assert Lot.objects.get(tournament=t, player=a).number == 2
    html = client.get(reverse("ratings:tournament_standings", args=[t.pk])).content.decode()
    assert html.index(">B</a>") < html.index(">A</a>")
    assert "Жребий" in html or "Lot" in html


@pytest.mark.django_db
def test_the_page_notes_a_decided_tie_on_both_of_its_rows(club, client):
    """The tie-breaker describes the pair: a footnote mark on the upper and the lower row, the note under the table."""
    import re

    t = make_tournament(club, "X", "xcraft")
    wins(t, "A", 3)
    play(t, "A", CITIZEN, "red", judge={CITIZEN: "0.7"}, approved=(CITIZEN,))
    wins(t, "B", 3)
    play(t, "B", CITIZEN, "red", judge={CITIZEN: "0.2"})
    play(t, "B", CITIZEN, "red", removals=[(CITIZEN, "disqualified", "D2")])
    score(t)
    html = client.get(reverse("ratings:tournament_standings", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    rows = {name: row for row in re.findall(r"<tr>.*?</tr>", html, re.S)
            for name in ("A", "B") if f">{name}</a>" in row}
    assert 'href="#tie-1"' in rows["A"] and 'href="#tie-1"' in rows["B"]
    ranks = {r.player: r.rank for r in tournament_standings(t)}
    note = re.search(r'<li id="tie-1">(.*?)</li>', html).group(1)
    assert note.startswith(f"Места {ranks['A']} и {ranks['B']}: суммы равны; порядок решил показатель «")
