"""The rule set's `third_foul_short_at` (docs/rules.md, Parameters): at these numbers of players at the table the
speech a 3rd foul costs is a short one instead of lost — 000 S7.8 "3 или 4 игрока … 30 секунд"; 003 l.73 has no
such exception. The pure core decides it (`facts.third_foul_speech`), the speaking order and the judge's screen
follow."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.rules.facts import SPEECH_KEPT, SPEECH_LOST, SPEECH_SHORT, third_foul_speech
from games.rules.ruleset import CML, KAMCHATKA, MOSCOW, XCRAFT, RuleSet


@pytest.mark.parametrize("ruleset,expected", [(XCRAFT, (3, 4)), (KAMCHATKA, (3, 4)), (MOSCOW, ()), (CML, ())])
def test_the_presets_carry_the_books_table_sizes(ruleset, expected):
    assert ruleset.third_foul_short_at == expected


def test_a_club_copy_decides_at_which_table_sizes_the_lost_speech_is_short():
    wider = replace(XCRAFT, third_foul_short_at=(3, 4, 5))
    assert third_foul_speech(wider, alive=5) == (SPEECH_SHORT, "000 S7.8")
    assert third_foul_speech(XCRAFT, alive=5) == (SPEECH_LOST, "000 D6.4")
    none = replace(XCRAFT, third_foul_short_at=())
    assert third_foul_speech(none, alive=4) == (SPEECH_LOST, "000 D6.4")
    moscow_with_fiim = replace(MOSCOW, third_foul_short_at=(3, 4))
    assert third_foul_speech(moscow_with_fiim, alive=3) == (SPEECH_SHORT, "000 S7.8")
    assert third_foul_speech(moscow_with_fiim, alive=6) == (SPEECH_LOST, "003 l.73")
    # 002 I.8.4: a 3rd foul costs nothing, whatever the table sizes say
    assert third_foul_speech(replace(CML, third_foul_short_at=(3, 4)), alive=4) == (SPEECH_KEPT, "002 I.8.4")


def test_stored_copies_keep_the_value_and_an_older_copy_takes_its_books():
    stored = replace(MOSCOW, slug="club-moscow", third_foul_short_at=(4,)).to_dict()
    assert RuleSet.from_dict(stored).third_foul_short_at == (4,)
    older = {k: v for k, v in replace(MOSCOW, slug="club-moscow").to_dict().items() if k != "third_foul_short_at"}
    assert RuleSet.from_dict(older).third_foul_short_at == ()
    older_xcraft = {k: v for k, v in XCRAFT.to_dict().items() if k != "third_foul_short_at"}
    assert RuleSet.from_dict({**older_xcraft, "slug": "club-x"}).third_foul_short_at == (3, 4)
