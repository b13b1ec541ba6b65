"""Property: after any sequence of imports, sign-offs and protest decisions (reversed, penalised, annulled and
replayed, rejected, protocols corrected — on any game, the season's earliest included), every stored seat score
and score item equals a full rescoring of its tournament after each step (a decision and a sign-off rescore only the
games they change, games.protocol.services.scoring), and every stored aggregate — facts,
tables, rating history, Elo — equals a recompute from scratch (and the season summary, computed when read, is the
same function of the games either way). The inline limits are lowered so that the long-tail task paths (run at once
by the test task backend) are taken too."""

from __future__ import annotations

import datetime as dt
import json
import random
import uuid

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from club.tests.factories import UserFactory
from games.live.apply import live_apply
from games.live.base import ActionRefused
from games.models import Game, Protest, ScoreItem, Seat, Tournament
from games.protests.services import REJECT, UPHOLD, ProtestError, protest_decide
from games.protocol.services.imports import ImportFailed, import_documents
from games.protocol.services.scoring import ITEM_COLUMNS, SCORE_COLUMNS, score_games
from games.rules.generate import generate_game
from games.rules.interchange import FORMAT, protocol_to_dict
from games.rules.ruleset import get_preset
from games.visibility import counting_games
from ratings.elo import services as services_elo
from ratings.standings import services

from .test_aggregates import snapshot

POOL = [f"Игрок {i}" for i in range(13)]
DAY0 = dt.date(2026, 2, 1)

operation = st.one_of(
    st.tuples(st.just("import"), st.integers(0, 60), st.sampled_from(["cml", "xcraft"]), st.integers(1, 3),
              st.integers(0, 10_000)),
    st.tuples(st.just("sign"), st.integers(0, 50)),
    st.tuples(st.just("protest"), st.integers(0, 50),
              st.sampled_from(["reverse_result", "add_penalty", "replay", "reject"])),
    # One game imported again into a tournament already stored (a new protocol of game 1–4, or a new game).
    st.tuples(st.just("reimport"), st.integers(0, 10), st.integers(1, 4), st.integers(0, 10_000)),
    # Corrections that move the Ci counts (002 III.3): the Night-1 kill (K), a swap of a red and a black card (R).
    st.tuples(st.just("correct"), st.integers(0, 3), st.sampled_from(["night_kill", "swap_roles"]),
              st.integers(1, 10), st.integers(1, 10)),
)


def do_import(day: int, slug: str, games: int, seed: int, n: list[int]) -> None:
    rng = random.Random(seed)
    protocols = []
    for i in range(games):
        p = generate_game(rng, get_preset(slug), players=rng.sample(POOL, 10), number=i + 1)
        p.date = (DAY0 + dt.timedelta(days=day)).isoformat()
        protocols.append(protocol_to_dict(p))
    n[0] += 1
    document = {"format": FORMAT, "tournament": {"name": f"Турнир {n[0]} {slug}", "ruleset": slug},
                "games": protocols}
    import_documents(documents=[("p.json", json.dumps(document, ensure_ascii=False))], club_name="Свойство")


def reimport(index: int, number: int, seed: int) -> None:
    """A one-game document for a stored tournament (its name and rule set); a signed game is refused."""
    tournament = pick_tournament(index)
    rng = random.Random(seed)
    slug = tournament.ruleset.slug
    p = generate_game(rng, get_preset(slug), players=rng.sample(POOL, 10), number=number)
    p.date = tournament.games.order_by("date").values_list("date", flat=True).first().isoformat()
    document = {"format": FORMAT, "tournament": {"name": tournament.name, "ruleset": slug},
                "games": [protocol_to_dict(p)]}
    try:
        import_documents(documents=[("p.json", json.dumps(document, ensure_ascii=False))], club_name="Свойство")
    except ImportFailed:
        pass


def pick_tournament(index: int) -> Tournament:
    tournaments = list(Tournament.objects.order_by("pk"))
    return tournaments[index % len(tournaments)]


def pick(index: int, **filters) -> Game | None:
    games = list(Game.objects.filter(**filters).order_by("pk"))
    return games[index % len(games)] if games else None


def stored_scores() -> dict:
    """Every stored seat score and score item, by seat."""
    items: dict[int, list] = {}
    for row in ScoreItem.objects.order_by("seat_id", "id").values_list("seat_id", *ITEM_COLUMNS):
        items.setdefault(row[0], []).append(row[1:])
    return {row[0]: (row[1:], items.get(row[0], [])) for row in Seat.objects.values_list("id", *SCORE_COLUMNS)}


def assert_scores_equal_a_full_rescoring() -> None:
    stored = stored_scores()
    for tournament in Tournament.objects.all():
        score_games(tournament=tournament)
    assert stored_scores() == stored


def decide(game: Game, admin, decision: str, outcomes: list[dict]) -> None:
    seat = game.seats.order_by("number").first()
    protest = Protest.objects.create(game=game, player=seat.player, seat=seat.number, filed_by=admin,
                                     category=Protest.Category.RESULT, text="x", filed_at=timezone.now())
    protest_decide(protest=protest, by=admin, decision=decision, explanation="x",
                   sk_representative="" if decision == REJECT else "СК", outcomes=outcomes)


def correct(game: Game, admin, field: str, a: int, b: int) -> None:
    """An upheld protest correcting the protocol; one the validator refuses changes nothing."""
    if field == "night_kill":
        outcomes = [{"kind": "correct_protocol", "field": "night_kill", "night": 1, "value": a if a != b else "miss"}]
    else:
        roles = dict(game.seats.values_list("number", "role"))
        red = sorted(n for n, r in roles.items() if r in ("К", "Ш"))
        black = sorted(n for n, r in roles.items() if r in ("Ч", "Д"))
        if not red or not black:
            return
        x, y = red[a % len(red)], black[b % len(black)]
        outcomes = [{"kind": "correct_protocol", "field": "seat_role", "seat": x, "value": roles[y]},
                    {"kind": "correct_protocol", "field": "seat_role", "seat": y, "value": roles[x]}]
    try:
        decide(game, admin, UPHOLD, outcomes)
    except ProtestError:
        pass


@pytest.mark.django_db
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(ops=st.lists(operation, min_size=2, max_size=6))
@example(ops=[("protest", 0, "replay")] * 3)  # every game annulled: no aggregate left, on either side
def test_every_stored_aggregate_equals_a_recompute_after_any_history(ops, monkeypatch):
    monkeypatch.setattr(services, "INLINE_HISTORY", 3)  # long tails go through the task path
    monkeypatch.setattr(services_elo, "INLINE_TAIL", 3)
    with transaction.atomic():
        admin = UserFactory(is_superuser=True, is_staff=True, username=f"admin-{uuid.uuid4().hex[:8]}")
        imports = [0]
        do_import(30, "cml", 3, 1, imports)  # something to sign and protest from the start
        for op in ops:
            if op[0] == "import":
                do_import(op[1], op[2], op[3], op[4], imports)
            elif op[0] == "sign":
                game = pick(op[1], status=Game.Status.FINISHED)
                if game is not None:
                    try:
                        live_apply(game_id=game.pk, by=admin, kind="sign", payload={}, version=game.version,
                                   action_id=str(uuid.uuid4()))
                    except ActionRefused:
                        pass  # a protocol the engine refuses to sign stays finished
            elif op[0] == "reimport":
                reimport(op[1], op[2], op[3])
            elif op[0] == "correct":  # the season's earliest games first
                games = list(Game.objects.filter(status__in=[Game.Status.FINISHED, Game.Status.SIGNED])
                             .order_by("date", "number", "pk")[:4])
                if games:
                    correct(games[op[1] % len(games)], admin, op[2], op[3], op[4])
            else:
                game = pick(op[1], status__in=[Game.Status.FINISHED, Game.Status.SIGNED])
                if game is None:
                    continue
                outcomes = {"reverse_result": [{"kind": "reverse_result",
                                                "result": "black" if game.result != "black" else "red"}],
                            "add_penalty": [{"kind": "add_penalty", "seat": 3, "points": "-0.5", "clause": "002 III.6",
                                             "note": ""}],
                            "replay": [{"kind": "replay"}],  # annulled: its rows leave every aggregate
                            "reject": []}[op[2]]
                decide(game, admin, REJECT if op[2] == "reject" else UPHOLD, outcomes)
            assert_scores_equal_a_full_rescoring()
        incremental = snapshot()
        # the comparison compares something, unless the history annulled every game (three replays of game 1)
        counted = counting_games().exists()
        assert bool(incremental["elo"]) == bool(incremental["stats"]) == counted
        services.recompute_all()
        assert snapshot() == incremental
        transaction.set_rollback(True)
