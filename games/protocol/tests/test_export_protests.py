"""Export → import keeps decided protests: a reversed result, an annulled game, its replay, penalties added and
removed, rejected and pending protests, all come back, so the standings and every seat's stored score are the same.

The tournaments are built the way a club builds them: generated games imported as mafclub/1, then protests
decided by the head judge through games.protests.services (the services the site uses). Each tournament is exported,
imported into a club of its own (an empty club: new players, new tournament) and compared: the standings rows,
every seat's stored score, each game's status, result and replay link, and each protest with its decision.
The demo club's tournaments (seed_demo) go through the same round trip.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from club.models import Club, Membership
from club.tests.factories import MembershipFactory, UserFactory
from games.models import Adjustment, Game, Protest, ScoreItem, Seat, Tournament
from games.protests.services import protest_decide
from games.protocol.selectors_export import _portable, export_tournament
from games.protocol.services.imports import ImportFailed, import_documents
from games.rules.generate import generate_games
from games.rules.interchange import protocol_to_dict
from games.rules.ruleset import get_preset
from ratings.standings.selectors import standings_json

pytestmark = pytest.mark.django_db

SK = "Иванов (СК)"


def _tournament(club: Club, name: str, slug: str, count: int, seed: int) -> Tournament:
    games = []
    for number, protocol in enumerate(generate_games(count, get_preset(slug), seed=seed), start=1):
        data = protocol_to_dict(protocol)
        data.update(number=number, table=1 + number % 2, date="2026-11-28",
                    ended_at=(dt.datetime(2026, 11, 28, 12, tzinfo=dt.UTC) + dt.timedelta(hours=number)).isoformat())
        games.append(data)
    document = {"format": "mafclub/1", "tournament": {"name": name, "ruleset": slug}, "games": games}
    report = import_documents(documents=[(f"{slug}.json", json.dumps(document, ensure_ascii=False))], club=club)
    return report.tournaments[0]


def _protest(game: Game, *, seat: int = 1, category=Protest.Category.RESULT) -> Protest:
    return Protest.objects.create(game=game, seat=seat, player=game.seats.get(number=seat).player,
                                  category=category, text=f"протест по игре {game.number}",
                                  filed_at=game.ended_at + dt.timedelta(minutes=2))


def _decided_games(tournament: Tournament) -> list[Game]:
    return list(tournament.games.filter(status=Game.Status.FINISHED).exclude(result="").order_by("number"))


def _decide(protest: Protest, head, decision: str, outcomes=None, minutes: int = 5) -> Protest:
    return protest_decide(protest=protest, by=head, decision=decision, explanation="решение главного судьи",
                          outcomes=outcomes or [], sk_representative=SK,
                          now=protest.game.ended_at + dt.timedelta(minutes=minutes))


def _other(result: str, *avoid: str) -> str:
    return next(r for r in ("black", "red", "draw") if r != result and r not in avoid)


def _with_protests(tournament: Tournament, head) -> dict[str, int]:
    """Decide the cases of the round trip on the tournament's finished games; returns game numbers by case."""
    games = _decided_games(tournament)
    cases = {}
    # A reversed result (red → black and the like), then reversed once more by a later protest.
    game = games[0]
    first = _other(game.result)
    _decide(_protest(game), head, "uphold", [{"kind": "reverse_result", "result": first}])
    _decide(_protest(game, seat=2), head, "uphold", [{"kind": "reverse_result", "result": _other(first)}], minutes=9)
    cases["reversed twice"] = game.number
    # A replay: the game is annulled and a new game replays it.
    game = games[1]
    _decide(_protest(game, category=Protest.Category.TECHNICAL_ERROR), head, "uphold", [{"kind": "replay"}])
    cases["annulled by a replay"] = game.number
    # …and the replay played: its protocol entered (here imported by its number), still linked to the annulled game.
    replay = game.replays.get()
    played = protocol_to_dict(next(iter(generate_games(1, tournament.ruleset.ruleset(), seed=99))))
    played.update(number=replay.number, table=replay.table, date="2026-11-29",
                  ended_at="2026-11-29T12:00:00+00:00")
    document = {"format": "mafclub/1", "tournament": {"name": tournament.name, "ruleset": tournament.ruleset.slug},
                "games": [played]}
    import_documents(documents=[("replay.json", json.dumps(document, ensure_ascii=False))], club=tournament.club)
    replay.refresh_from_db()
    assert replay.status == Game.Status.FINISHED and replay.replay_of_id == game.pk
    cases["replay played"] = replay.number
    # A penalty added, and an automatic penalty (or a judge's) removed.
    game = games[2]
    outcomes = [{"kind": "add_penalty", "seat": 4, "points": "-0.5", "clause": "002 App. l.550", "note": "жест"}]
    negative = ScoreItem.objects.filter(seat__game=game, effective=True, points__lt=0).first()
    if negative is not None:
        outcomes.append({"kind": "remove_penalty", "score_item": negative.pk})
    _decide(_protest(game, category=Protest.Category.DISCIPLINARY_ADD), head, "uphold", outcomes)
    cases["penalties"] = game.number
    # A reversal that removes a penalty too, on one decision.
    game = games[3]
    _decide(_protest(game), head, "uphold", [
        {"kind": "reverse_result", "result": _other(game.result)},
        {"kind": "add_penalty", "seat": 7, "points": "-0.3", "clause": "002 App. l.550", "note": ""}])
    cases["reversed with a penalty"] = game.number
    # Rejected, and still pending (the standings are provisional).
    game = games[4]
    _decide(_protest(game), head, "reject")
    cases["rejected"] = game.number
    _protest(games[5])
    cases["pending"] = games[5].number
    return cases


def _moscow_team_vote(tournament: Tournament, head) -> int:
    """003 l.127: the protesting team and one opponent vote for it, and the game is annulled."""
    game = _decided_games(tournament)[6]
    seats = {s.number: s.role for s in game.seats.all()}
    reds = [n for n, role in seats.items() if role in ("К", "Ш")]
    blacks = [n for n, role in seats.items() if role in ("Ч", "Д")]
    protest = _protest(game, seat=blacks[0])
    _decide(protest, head, "uphold", [{"kind": "team_vote", "votes": [*blacks, reds[0]]}])
    return game.number


def fingerprint(tournament: Tournament) -> dict:
    """What must survive the round trip: standings rows, every seat's stored score, games and protests."""
    seats = sorted(
        (s.game.number, s.number, s.player.nickname, s.role, str(s.main), str(s.extras), str(s.total),
         str(s.tiebreak_extras), s.won, s.first_night_death)
        for s in Seat.objects.filter(game__tournament=tournament).select_related("game", "player"))
    games = sorted(
        (g.number, g.status, g.result, g.replay_of.number if g.replay_of_id else None)
        for g in Game.objects.filter(tournament=tournament).select_related("replay_of"))
    protests = sorted(
        (p.game.number, p.seat, p.player.nickname if p.player_id else "", p.category, p.status, p.explanation,
         json.dumps(_portable(p.outcomes), ensure_ascii=False, sort_keys=True))
        for p in Protest.objects.filter(game__tournament=tournament).select_related("game", "player"))
    adjustments = sorted(
        (a.game.number, a.seat, str(a.points), a.clause, a.source)
        for a in Adjustment.objects.filter(game__tournament=tournament).select_related("game"))
    return {"standings": standings_json(tournament)["rows"], "seats": seats, "games": games, "protests": protests,
            "adjustments": adjustments}


def _round_trip(tournament: Tournament, club_name: str) -> Tournament:
    exported = json.dumps(export_tournament(tournament), ensure_ascii=False)
    report = import_documents(documents=[("export.json", exported)], club_name=club_name)
    return report.tournaments[0]


@pytest.fixture
def head(db):
    return UserFactory(username="head", is_superuser=False)


@pytest.mark.parametrize("slug", ["cml", "xcraft", "kamchatka", "moscow"])
def test_export_then_import_keeps_decided_protests_and_standings(slug, head, client):
    club = Club.objects.create(name="Полночь")
    MembershipFactory(club=club, user=head, role=Membership.Role.HEAD_JUDGE)
    tournament = _tournament(club, "Кубок протестов", slug, 12, seed=11)
    tournament.head_judge = head
    tournament.save()
    cases = _with_protests(tournament, head)
    if slug == "moscow":
        cases["team vote"] = _moscow_team_vote(tournament, head)
    before = fingerprint(tournament)
    # The cases really are in the tournament (so the comparison below compares them).
    statuses = dict((number, status) for number, status, _result, _replay in before["games"])
    assert statuses[cases["annulled by a replay"]] == Game.Status.ANNULLED
    assert any(replay == cases["annulled by a replay"] for *_rest, replay in before["games"])
    assert any('"reverse_result"' in p[-1] for p in before["protests"])
    assert any(a[-1] == "protest" for a in before["adjustments"])
    assert {p[4] for p in before["protests"]} == {"upheld", "rejected", "pending"}
    assert any(row.get("provisional") for row in before["standings"])

    copy = _round_trip(tournament, "Копия")
    assert copy.club.name == "Копия" and copy.pk != tournament.pk
    after = fingerprint(copy)
    for key in before:
        assert after[key] == before[key], key
    # The imported decisions show on the game pages (the replay linked by its new id).
    annulled = copy.games.get(number=cases["annulled by a replay"])
    page = client.get(reverse("games:game_detail", args=[annulled.pk]))
    assert page.status_code == 200
    assert reverse("games:game_detail", args=[annulled.replays.get().pk]) in page.content.decode()
    for game in copy.games.exclude(pk=annulled.pk):
        assert client.get(reverse("games:game_detail", args=[game.pk])).status_code == 200


def test_a_reversed_game_exports_its_official_result_and_the_reversal(head):
    club = Club.objects.create(name="Полночь")
    MembershipFactory(club=club, user=head, role=Membership.Role.HEAD_JUDGE)
    tournament = _tournament(club, "Кубок", "xcraft", 3, seed=5)
    game = _decided_games(tournament)[0]
    old = game.result
    new = _other(old)
    _decide(_protest(game), head, "uphold", [{"kind": "reverse_result", "result": new}])
    data = export_tournament(tournament)["games"][game.number - 1]
    assert data["result"] == new and data["status"] == "finished"
    [protest] = data["protests"]
    assert protest["status"] == "upheld" and {"kind": "reverse_result", "from": old, "to": new} in protest["outcomes"]
    # Without the protest the file contradicts itself: refused as before, with the reason.
    del data["protests"]
    document = {"format": "mafclub/1", "tournament": {"name": "Другой", "ruleset": "xcraft"}, "games": [data]}
    with pytest.raises(ImportFailed):
        import_documents(documents=[("bad.json", json.dumps(document))], club_name="Другой клуб")


def test_an_import_never_replaces_the_protests_a_game_has(head):
    club = Club.objects.create(name="Полночь")
    MembershipFactory(club=club, user=head, role=Membership.Role.HEAD_JUDGE)
    tournament = _tournament(club, "Кубок", "cml", 4, seed=5)
    tournament.head_judge = head
    tournament.save()
    games = _decided_games(tournament)
    _decide(_protest(games[0]), head, "reject")
    _decide(_protest(games[1]), head, "uphold", [
        {"kind": "reverse_result", "result": _other(games[1].result)},
        {"kind": "add_penalty", "seat": 3, "points": "-0.5", "clause": "002 App. l.550"}])
    data = export_tournament(tournament)
    before = fingerprint(tournament)
    # The site's own export, imported again: the same protests, kept as they are (nothing doubled).
    import_documents(documents=[("again.json", json.dumps(data, ensure_ascii=False))], club=club)
    assert fingerprint(tournament) == before
    # A file whose protests differ from the decided ones: refused, nothing changed.
    changed = json.loads(json.dumps(data))
    changed["games"][games[0].number - 1]["protests"][0]["status"] = "upheld"
    changed["games"][games[0].number - 1]["protests"][0]["outcomes"] = []
    with pytest.raises(ImportFailed) as failure:
        import_documents(documents=[("changed.json", json.dumps(changed, ensure_ascii=False))], club=club)
    assert any(f"game {games[0].number}: protests:" in line and "000 T6.3.4" in line
               for line in failure.value.problems), failure.value.problems
    assert fingerprint(tournament) == before


def test_the_demo_tournaments_survive_the_round_trip(head):
    call_command("seed_demo", stdout=open("/dev/null", "w"))
    for tournament in Tournament.objects.all():
        before = fingerprint(tournament)
        copy = _round_trip(tournament, f"Копия {tournament.pk}")
        after = fingerprint(copy)
        for key in before:
            assert after[key] == before[key], (tournament.name, key)


def test_the_protests_of_an_import_keep_their_times(head):
    club = Club.objects.create(name="Полночь")
    MembershipFactory(club=club, user=head, role=Membership.Role.HEAD_JUDGE)
    tournament = _tournament(club, "Кубок", "xcraft", 2, seed=3)
    game = _decided_games(tournament)[0]
    protest = _decide(_protest(game), head, "reject")
    copy = _round_trip(tournament, "Копия")
    imported = Protest.objects.get(game__tournament=copy)
    assert imported.filed_at == protest.filed_at and imported.decided_at == protest.decided_at
    assert imported.decided_at <= timezone.now()


def test_the_ex18_protest_tournament_survives_the_round_trip():
    """The protest tests' tournament (games/tests/protest_fixtures.py): Ex 18 reversed black → red, which lapses
    the loss-conditional −0.3 of seat 4 (docs/rules.md; 002 III.6), with a penalty added; and a protocol
    correction on another game."""
    from games.tests.protest_fixtures import protest_cast

    cast = protest_cast()
    protest = _protest(cast.game, seat=5)
    decided = _decide(protest, cast.head_judge, "uphold", [
        {"kind": "reverse_result", "result": "red"},
        {"kind": "add_penalty", "seat": 8, "points": "-0.5", "clause": "002 App. l.550", "note": "II.2.10"}])
    assert [o["kind"] for o in decided.outcomes].count("lapsed") == 1
    other = cast.tournament.games.get(number=2)
    fouls = other.seats.get(number=1).fouls
    _decide(_protest(other, category=Protest.Category.TECHNICAL_ERROR), cast.head_judge, "uphold", [
        {"kind": "correct_protocol", "field": "seat_fouls", "seat": 1, "value": fouls + 1}])
    before = fingerprint(cast.tournament)
    copy = _round_trip(cast.tournament, "Копия")
    after = fingerprint(copy)
    for key in before:
        assert after[key] == before[key], key
    assert copy.games.get(number=2).seats.get(number=1).fouls == fouls + 1
