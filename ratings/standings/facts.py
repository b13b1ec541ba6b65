"""What one game says of each of its seats: the `PlayerGame` rows (the registry's facts), built from the stored
protocol (seats, nights, nominations) and compared with the stored ones (`ratings.standings.services.refresh`
writes only the games whose facts changed)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from club.bulk import insert_rows
from games.models import Day, Game, Night, RuleSetVersion, Seat
from games.visibility import counting_games
from ratings.models import PlayerGame
from ratings.statistics.registry import FACT_KEYS, FACTS, GameFacts, SeatFacts

CHUNK = 2000  # games per streamed chunk


def counted_games():
    """Games that count in scores and standings (Game.counts, as a queryset)."""
    return counting_games()  # hidden results (games.visibility) count nowhere until revealed


GAME_VALUES = ("pk", "club_id", "tournament_id", "date", "best_move", "ruleset_id", "tournament__difficult_roles")


def game_chunks(games) -> Iterator[list[dict]]:
    """The games' GAME_VALUES, CHUNK games at a time (their ids read first)."""
    ids = list(games.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), CHUNK):
        yield list(Game.objects.filter(pk__in=ids[start:start + CHUNK]).values(*GAME_VALUES))


def fresh_facts(game_ids: list[int]) -> tuple[dict[tuple[int, int], dict], dict[int, dict]]:
    """The PlayerGame rows the games (the counting ones) have now, by (game, player), as `build_facts` makes them;
    and the counting games' GAME_VALUES by id."""
    games = counted_games().filter(pk__in=game_ids)
    # a write's few games: one chunk, read in one query, with their rule sets' parameters (no query for them)
    chunks = [list(games.values(*GAME_VALUES, "ruleset__params"))] if len(game_ids) <= CHUNK else list(game_chunks(games))
    facts = {(r["game_id"], r["player_id"]): r for chunk in build_facts(chunks) for r in chunk}
    return facts, {g["pk"]: g for chunk in chunks for g in chunk}


def stored_facts(game_ids: list[int]) -> dict[tuple[int, int], dict]:
    return {(r["game_id"], r["player_id"]): r
            for r in PlayerGame.objects.filter(game_id__in=game_ids).values(*fact_fields())}


def changed_games(old: dict[tuple[int, int], dict], new: dict[tuple[int, int], dict]) -> set[int]:
    """The games whose stored facts differ from the rebuilt ones (a seat score, a role, a player, counting or not)."""
    changed = {game_id for game_id, player_id in old.keys() ^ new.keys()}
    for key, row in new.items():
        if key[0] not in changed and row != old[key]:
            changed.add(key[0])
    return changed



def store_player_games(games) -> int:
    stored = 0
    for rows in build_facts(game_chunks(games)):
        stored += insert_facts(rows)
    return stored


ROW_FIELDS = ["game_id", "player_id", "club_id", "tournament_id", "date", "seat", "role"]


def fact_fields() -> list[str]:
    """The PlayerGame columns a row of facts fills: the row's keys, then the registry's facts (read when called: a
    statistic registered later, as a test does, is included)."""
    return [*ROW_FIELDS, *FACT_KEYS]


def insert_facts(rows: list[dict]) -> int:
    """Store PlayerGame rows (dicts of `fact_fields()`, as game_rows makes them) with one prepared INSERT."""
    fields = fact_fields()
    return insert_rows(PlayerGame, fields, ([r[f] for f in fields] for r in rows))  # type: ignore[misc]


def build_facts(chunks: Iterable[list[dict]]) -> Iterator[list[dict]]:
    """The PlayerGame rows of the games (chunks of their GAME_VALUES, as `game_chunks` gives them) as dicts of
    `fact_fields()`, a list a chunk (no model instances: cheaper to compare)."""
    difficult_by_ruleset: dict[int, tuple[str, ...]] = {}
    for chunk in chunks:
        if not chunk:  # none of a write's games counts (an annulled one): nothing to read
            continue
        ids = [g["pk"] for g in chunk]
        seats: dict[int, list[tuple]] = {}
        for seat in Seat.objects.filter(game_id__in=ids).values_list(
                "game_id", "number", "player_id", "role", "won", "main", "extras", "total", "tiebreak_extras",
                "fouls", "first_night_death"):
            seats.setdefault(seat[0], []).append(seat)
        nights: dict[int, list[tuple]] = {}
        for row in Night.objects.filter(game_id__in=ids).order_by("game_id", "index").values_list(
                "game_id", "index", "kill", "don_check", "sheriff_check"):
            nights.setdefault(row[0], []).append(row)
        nominations: dict[int, list[dict]] = {}
        hands: dict[int, list[tuple[int, int]]] = {}
        for game_id, day_nominations, voters in Day.objects.filter(game_id__in=ids).order_by(
                "game_id", "index").values_list("game_id", "nominations", "voters"):
            nominations.setdefault(game_id, []).extend(day_nominations or [])
            hands.setdefault(game_id, []).extend(recorded_hands(voters))
        rows: list[dict] = []
        for g in chunk:
            difficult = tuple(g["tournament__difficult_roles"] or ()) or _ruleset_difficult(
                g["ruleset_id"], difficult_by_ruleset, g.get("ruleset__params"))
            rows += game_rows(g, seats.get(g["pk"], []), nights.get(g["pk"], []), difficult,
                               nominations.get(g["pk"], []), hands.get(g["pk"], []))
        yield rows


def _ruleset_difficult(ruleset_id: int, memo: dict[int, tuple[str, ...]], params: dict | None = None
                       ) -> tuple[str, ...]:
    """The rule set's difficult roles (002 III.14.3), read once a rule set (`params`: its parameters, when the
    game's row brought them)."""
    if ruleset_id not in memo:
        version = RuleSetVersion(pk=ruleset_id, params=params) if params is not None else (
            RuleSetVersion.objects.get(pk=ruleset_id))
        memo[ruleset_id] = version.ruleset().difficult_roles
    return memo[ruleset_id]


def recorded_hands(voters: dict | None) -> list[tuple[int, int]]:
    """A stored day's recorded votes (docs/rules.md I47) as (voter, candidate) pairs: the main round's and every
    re-vote's hands; the players who raised none are not among them."""
    if not voters:
        return []
    rounds = [voters.get("voters") or {}, *(voters.get("revote_voters") or [])]
    return [(int(voter), candidate) for round_ in rounds for voter, candidate in round_.items()]


def game_rows(game: dict, seats: list[tuple], nights: list[tuple], difficult: tuple[str, ...],
              nominations: list[dict] | None = None, hands: list[tuple[int, int]] | None = None) -> list[dict]:
    """The PlayerGame rows of one game: the seat's keys, then each registry fact (ratings.statistics.registry.FACTS).
    A summary protocol has no nights: its first-night victim is the seat scored with the first-night death."""
    best_move = game["best_move"]
    first_victim = nights[0][2] if nights and nights[0][1] == 1 else None
    if not nights:
        first_victim = next((seat[1] for seat in seats if seat[-1]), None)
    facts = GameFacts(roles={number: role for _, number, _, role, *_ in seats},
                      best_move=list(best_move) if best_move is not None else None,
                      first_victim=first_victim, nights=[n[1:] for n in nights], nominations=nominations or [],
                      hands=hands or [])
    rows = []
    for _, number, player_id, role, won, main, extras, total, tb_extras, fouls, fnd in seats:
        seat = SeatFacts(number=number, role=role or "", won=won, main=main, extras=extras, total=total,
                         tiebreak_extras=tb_extras, fouls=fouls, first_night_death=fnd, difficult=role in difficult)
        row = dict(game_id=game["pk"], player_id=player_id, club_id=game["club_id"],
                   tournament_id=game["tournament_id"], date=game["date"], seat=number, role=role or "")
        row.update((fact.key, fact.compute(facts, seat)) for fact in FACTS)
        rows.append(row)
    return rows
