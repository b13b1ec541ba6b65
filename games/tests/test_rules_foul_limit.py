"""The rule set's `foul_limit` is one number for the core, the validator, the handler, the screen's words and its
buttons (000 D6.4–D6.5, 002 II.2.1, 003 l.73 / l.123; docs/rules.md I7): a game is played under a copy of the
X-Craft preset with the removing foul at 3, at the preset's own 4 and at 5."""

import re
from dataclasses import replace

import pytest
from django.urls import reverse

from games.live.state import foul_consequence, vote_note
from games.models import Game, Removal, RuleSetVersion, Seat
from games.protocol.selectors import protocol_of, with_protocol
from games.rules.checks import check_fouls, check_removal_entries
from games.rules.consequences import foul_effect
from games.rules.flow import REVOTE_DUE, VoteState
from games.tests.live_fixtures import ROLES, act, seat_everyone

pytestmark = pytest.mark.django_db

NTH = {2: "2nd", 3: "3rd", 4: "4th", 5: "5th", 6: "6th"}
SEAT = 6


def _copy_with_limit(live, limit: int) -> RuleSetVersion:
    """The club's copy of the X-Craft preset with `foul_limit` changed, as the rule-set editor stores it."""
    preset = RuleSetVersion.objects.filter(slug="xcraft", club__isnull=True).order_by("-version").first()
    params = {**preset.params, "foul_limit": limit, "slug": f"xcraft-fouls-{limit}"}
    return RuleSetVersion.objects.create(slug=f"xcraft-fouls-{limit}", name=f"X-Craft, {limit} fouls", club=live.club,
                                         based_on=preset, params=params)


def _seat(game: Game) -> Seat:
    return Seat.objects.get(game=game, number=SEAT)


def _page(client, game: Game) -> str:
    return client.get(reverse("games:judge", args=[game.pk])).content.decode()


@pytest.mark.parametrize("limit", [3, 4, 5])
def test_the_removing_foul_is_the_rule_sets_everywhere(live, client, limit):
    stored = _copy_with_limit(live, limit)
    ruleset = stored.ruleset()
    assert ruleset.foul_limit == limit and ruleset.speech_foul == limit - 1
    live.game.ruleset = stored
    live.game.save()
    seat_everyone(live.game, live.players, ROLES)
    client.force_login(live.judge)
    assert act(client, live.game, "start").status_code == 200
    game = Game.objects.get(pk=live.game.pk)
    # the buttons: the sheet's +1 asks once before the removing foul (static/js/live.js reads data-foul-limit)
    assert f'data-foul-limit="{limit}"' in _page(client, game)

    for count in range(1, limit):
        response = act(client, game, "foul", seat=SEAT, delta=1, **{"from": count - 1})
        assert response.status_code == 200 and _seat(game).fouls == count
        effect = foul_effect(ruleset, count)
        assert not effect.removes and effect.costs_speech == (count == limit - 1)  # the core
        assert not Removal.objects.filter(game=game).exists()  # the handler removes nobody yet
        page = _page(client, game)
        # the screen: the speech foul's consequence line, only at the speech foul
        assert (f'data-testid="consequence-{SEAT}"' in page) == (count == limit - 1), count
        assert "removes seat" not in page
    # the validator accepts every count below the limit without a removal
    assert check_fouls(protocol_of(with_protocol(Game.objects.filter(pk=game.pk)).get()), ruleset) == []

    removing = act(client, game, "foul", seat=SEAT, delta=1, **{"from": limit - 1})
    body = removing.content.decode()
    assert removing.status_code == 200 and f"the {NTH[limit]} foul removes seat {SEAT}" in body
    assert foul_effect(ruleset, limit).removes  # the core
    removal = Removal.objects.get(game=game)  # the handler stored the removal at the limit
    assert (removal.seat, removal.reason, _seat(game).fouls) == (SEAT, "fouls", limit)
    protocol = protocol_of(with_protocol(Game.objects.filter(pk=game.pk)).get())
    assert check_fouls(protocol, ruleset) == [] and check_removal_entries(protocol, ruleset) == []  # the validator

    before = (Game.objects.get(pk=game.pk).version, _seat(game).fouls, Removal.objects.count())
    past = act(client, game, "foul", seat=SEAT, delta=1, **{"from": limit})
    text = past.content.decode()
    assert past.status_code == 422
    assert f"there is no {NTH[limit + 1]} foul; seat {SEAT} was removed at the {NTH[limit]}" in text
    assert (Game.objects.get(pk=game.pk).version, _seat(game).fouls, Removal.objects.count()) == before
    assert foul_effect(ruleset, limit + 1).refused  # the core refuses it too


@pytest.mark.parametrize("limit", [3, 4, 5])
def test_the_validator_counts_to_the_rule_sets_limit(live, limit):
    """docs/rules.md I7: fouls past the limit are refused; the limit without its removal is flagged; a removal for
    fouls needs exactly the limit."""
    ruleset = replace(_copy_with_limit(live, 4).ruleset(), foul_limit=limit)
    game = live.game
    seat_everyone(game, live.players, ROLES)
    protocol = protocol_of(with_protocol(Game.objects.filter(pk=game.pk)).get())
    seat = protocol.seat(SEAT)

    seat.fouls = limit + 1
    [past] = check_fouls(protocol, ruleset)
    assert f"fouls are 0..{limit} (got {limit + 1})" in past.message
    seat.fouls = limit
    [unrecorded] = check_fouls(protocol, ruleset)
    assert f"the {NTH[limit]} foul removes the player; record the removal" in unrecorded.message
    seat.fouls = limit - 1
    assert check_fouls(protocol, ruleset) == []


def test_the_short_speech_and_the_tie_note_say_the_rule_sets_seconds(live):
    """000 4.4.14, S7.8: the short speech's length is the rule set's `short_speech_seconds`."""
    ruleset = replace(_copy_with_limit(live, 5).ruleset(), short_speech_seconds=45)
    note = vote_note(VoteState(nominees=[2, 5], step="revote", candidates=[2, 5], alive=8, reason=REVOTE_DUE,
                                clause="000 4.4.14"), ruleset)
    assert "45-second speeches" in note
    assert re.search(r"5th foul removes seat 2", foul_consequence(ruleset, 2, 5))
    assert foul_consequence(ruleset, 2, 4) and not foul_consequence(ruleset, 2, 3)
