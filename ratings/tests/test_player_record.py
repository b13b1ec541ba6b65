"""`PlayerRecord` holds the registry's statistics by key (ratings.standings.ranking): it is built from a stored row by
the same declaration, refuses a name that is not a recorded statistic, and survives a copy and the cache's pickle."""

from __future__ import annotations

import copy
import pickle
from decimal import Decimal

import pytest

from ratings.standings.ranking import METRICS, RECORDED, PlayerRecord
from ratings.statistics.registry import STAT_FIELDS


def test_every_tiebreaker_compares_a_recorded_statistic():
    assert all(t.statistic in RECORDED for t in METRICS.values() if t.statistic)
    assert set(RECORDED) <= set(STAT_FIELDS)


def test_a_record_from_a_stored_row_and_its_copies():
    row = {key: index for index, key in enumerate(STAT_FIELDS)}
    record = PlayerRecord.of("a", row)
    assert [getattr(record, key) for key in RECORDED] == [row[key] for key in RECORDED]
    for twin in (pickle.loads(pickle.dumps(record)), copy.deepcopy(record), copy.copy(record)):
        assert twin == record and twin.wins == row["wins"]
    with pytest.raises(AttributeError):
        _ = record.fouls  # not a recorded statistic


def test_an_unknown_statistic_is_refused():
    with pytest.raises(TypeError, match="not a recorded statistic: luck"):
        PlayerRecord("a", luck=Decimal(1))
