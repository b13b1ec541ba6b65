"""The gaining table's arithmetic and refusals, and the series ranking's tie-breakers (no database)."""

from decimal import Decimal as D

import pytest

from leagues import gaining, ranking
from leagues.tests.season import TABLE


@pytest.fixture
def table():
    return gaining.parse(TABLE)


def test_field_multiplier_is_linear_between_points_and_flat_outside(table):
    assert table.multiplier(5) == D("0.5") and table.multiplier(10) == D("0.5")
    assert table.multiplier(15) == D("0.75")
    assert table.multiplier(30) == D("1.125")
    assert table.multiplier(80) == D("1.5") and table.multiplier(500) == D("1.5")


def test_half_star_is_the_mean_of_the_rows_around_it_and_zero_past_the_list(table):
    column = table.places_points(D("1.5"), 20)
    assert column[0] == D("15.00")  # (10 + 20) / 2 × 1.0
    assert column[8] == D("1.50")  # (0 + 3) / 2
    assert table.places_points(D("1"), 20)[8] == D("0.00")
    assert gaining.shared(table.places_points(D("2"), 20), 2, 3) == D("13.33")  # (16 + 13 + 11) / 3


@pytest.mark.parametrize(("change", "named"), [
    (lambda t: t["stars"]["3"].__setitem__(2, 25), "stars.3[3]: place 3 earns more than place 2 (25 > 24)."),
    (lambda t: t["stars"].__setitem__("0", [1]), "stars.0: stars are 1 to 5."),
    (lambda t: t["stars"].pop("4"), "stars.4: the row is missing."),
    (lambda t: t.__setitem__("field", [[10, 1], [10, 2]]), "field[2]: the participants must increase (10 after 10)."),
    (lambda t: t["stars"]["1"].__setitem__(0, -1), "stars.1[1]: a number of 0 or more is expected."),
    (lambda t: t.__setitem__("best_of", 0), "best_of: a whole number from 1 to 1000 is expected."),
])
@pytest.mark.usefixtures("english")
def test_a_bad_table_is_refused_naming_the_entry(change, named):
    import copy

    data = copy.deepcopy(TABLE)
    change(data)
    with pytest.raises(gaining.TableError) as refused:
        gaining.parse(data)
    assert named in refused.value.problems


def test_stars_are_one_to_five_in_half_steps():
    assert gaining.valid_stars("2.5") == D("2.5")
    assert gaining.valid_stars("5") == D("5.0")
    assert gaining.valid_stars("2.3") is None and gaining.valid_stars("5.5") is None and gaining.valid_stars("x") is None


def _event(tid, finals=False, **results):
    return ranking.Event(tid, finals, {int(k[1:]): (place, D(points)) for k, (place, points) in results.items()})


def test_best_single_result_then_latest_break_ties():
    events = [_event(1, p1=(1, "10"), p2=(2, "6"), p3=(3, "5"), p4=(4, "5")),
              _event(2, p1=(2, "2"), p2=(1, "6"), p3=(4, "5"), p4=(3, "5")),
              _event(3, p3=(1, "1"), p4=(2, "1"))]
    rows = ranking.standings(events, best_of=2)
    by_player = {r.player_id: r for r in rows}
    assert [r.player_id for r in rows] == [1, 2, 3, 4]
    assert by_player[2].decided_by == "best"  # 12 = 12, two counted each; 10 beats 6
    assert by_player[3].rank == 3 and by_player[4].rank == 3  # equal on everything: the place is shared
    assert [x.counted for x in by_player[3].results] == [True, True, False]  # the third is cut off (best of 2)


def test_latest_result_breaks_a_tie_the_best_cannot():
    events = [_event(1, p1=(1, "8"), p2=(2, "4")), _event(2, p1=(2, "4"), p2=(1, "8"))]
    rows = ranking.standings(events, best_of=2)
    assert [r.player_id for r in rows] == [2, 1] and rows[1].decided_by == "latest"


def test_a_finals_counts_outside_the_best_n():
    events = [_event(1, p1=(1, "10")), _event(2, p1=(1, "9")), _event(3, True, p1=(5, "1"))]
    row = ranking.standings(events, best_of=1)[0]
    assert [x.counted for x in row.results] == [True, False, True] and row.total == D("11")


def test_tied_players_share_the_mean_of_their_places(table):
    column = table.places_points(D("2.5"), 10)
    assert gaining.shared(column, 4, 4) == D("4.94")  # (6.75 + 5.5 + 4.25 + 3.25) / 4
    assert gaining.shared(column, 10, 3) == D("0.33")  # places 11 and 12 are past the field: 0
