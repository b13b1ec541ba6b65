"""Property: after any sequence of imports, sign-offs and protest decisions (reversed, penalised, annulled and
replayed, rejected — on any game, the season's earliest included), every stored aggregate — facts,
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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from club.tests.factories import UserFactory
from games.live.apply import live_apply
from games.live.base import ActionRefused
from games.models import Game, Protest
from games.protests import REJECT, UPHOLD, protest_decide
from games.rules.generate import generate_game
from games.rules.interchange import FORMAT, protocol_to_dict
from games.rules.ruleset import get_preset
from games.services import import_documents
from ratings import services, services_elo

from .test_aggregates import snapshot

POOL = [f"Игрок {i}" for i in range(13)]
DAY0 = dt.date(2026, 2, 1)

operation = st.one_of(
    st.tuples(st.just("import"), st.integers(0, 60), st.sampled_from(["cml", "xcraft"]), st.integers(1, 3),
              st.integers(0, 10_000)),
    st.tuples(st.just("sign"), st.integers(0, 50)),
    st.tuples(st.just("protest"), st.integers(0, 50),
              st.sampled_from(["reverse_result", "add_penalty", "replay", "reject"])),
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


def pick(index: int, **filters) -> Game | None:
    games = list(Game.objects.filter(**filters).order_by("pk"))
    return games[index % len(games)] if games else None


@pytest.mark.django_db
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(ops=st.lists(operation, min_size=2, max_size=6))
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
            else:
                game = pick(op[1], status__in=[Game.Status.FINISHED, Game.Status.SIGNED])
                if game is None:
                    continue
                seat = game.seats.order_by("number").first()
                protest = Protest.objects.create(game=game, player=seat.player, seat=seat.number, filed_by=admin,
                                                 category=Protest.Category.RESULT, text="x", filed_at=timezone.now())
                outcomes = {"reverse_result": [{"kind": "reverse_result",
                                                "result": "black" if game.result != "black" else "red"}],
                            "add_penalty": [{"kind": "add_penalty", "seat": 3, "points": "-0.5", "clause": "002 III.6",
                                             "note": ""}],
                            "replay": [{"kind": "replay"}],  # annulled: its rows leave every aggregate
                            "reject": []}[op[2]]
                protest_decide(protest=protest, by=admin, decision=REJECT if op[2] == "reject" else UPHOLD,
                               explanation="x", sk_representative="" if op[2] == "reject" else "СК",
                               outcomes=outcomes)
        incremental = snapshot()
        assert incremental["elo"] and incremental["stats"]
        services.recompute_all()
        assert snapshot() == incremental
        transaction.set_rollback(True)
