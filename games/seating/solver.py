"""A balanced seating schedule for a tournament: P participants, R rounds, tables of ten.

What it optimises, in order (the order of the organiser's wishes):

1. Everyone plays the same number of games, ±1 when P × games is not a multiple of ten: each round the
   participants who have played the most so far sit out, ties broken by a seeded draw, so sitting out goes in turn.
2. Seats are spread: within every block of ten rounds nobody sits in the same seat twice. Once the tables are
   fixed this is a bipartite edge colouring (tables × participants, every table of degree ten, every participant of
   degree ≤ ten), which König's theorem says always exists with ten colours; `assign_seats` finds one by
   alternating paths. Locked seats turn it into a pre-coloured colouring, solved with OR-Tools CP-SAT.
3. Pairs meet evenly: with m the average number of meetings of a pair, no pair should meet far fewer or far more
   times than m. The search is a tabu search over swaps of two participants between tables of one round (as in
   Dotú & Van Hentenryck's local search for the social golfer problem): each step evaluates every swap in one round
   at once (a swap changes 36 pairs; the change of the cost is computed from the meetings matrix) and makes the best
   one not forbidden by the tabu list. It works on the extremes: a min-max descent that narrows a window
   [lo, hi] of allowed meetings one end at a time (the end farther from m first) and searches until every pair is
   inside it, with Σ c² as the tie-break; it stops when neither end can be narrowed, either because the proven
   bounds of `games.seating.bounds` forbid it or because the search does not get there (`docs/seating.md`).
4. Pairs that must not share a table (`avoid`) weigh far more than any meeting, so the search never seats them
   together while another swap exists; if some still sit together at the end the request is refused.

Deterministic for a given seed: the search is bounded by a number of steps; the time limit only cuts a search
that would run longer than the organiser wants to wait (then the result depends on the machine's speed).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from games.seating.bounds import Bound, bound

TABLE_SIZE = 10
SEAT_BLOCK = 10  # no seat repeated within this many rounds
_AVOID_WEIGHT = 10_000
_BIG = np.iinfo(np.int64).max // 4
_OUTSIDE = 30  # a pair d meetings outside the window aimed at costs 30·d² more
_INNER = 3  # and 3·e² for e meetings outside ⌊m⌋…⌈m⌉, so that inside the window most pairs meet ⌊m⌋ or ⌈m⌉ times
_KEEP = 1000  # and 1000·d² for d meetings outside the window already reached
_PATIENCE = 3000  # steps without a better cost before a stage gives up (once more after a shake)


class SeatingImpossible(ValueError):
    """The request cannot be met; the message says why, for the organiser."""


@dataclass(frozen=True)
class Lock:
    """Participant `participant` sits at table `table`, seat `seat` in round `round` (all numbered from 1)."""

    round: int
    table: int
    seat: int
    participant: int


@dataclass(frozen=True)
class SeatingRequest:
    participants: int
    rounds: int
    seed: int = 0
    avoid: tuple[tuple[int, int], ...] = ()
    # round (from 1) -> participants who do not play it (withdrawn before it, or entered later)
    absent: Mapping[int, frozenset[int]] = field(default_factory=dict)
    locks: tuple[Lock, ...] = ()
    max_steps: int = 60_000
    time_limit: float = 10.0


@dataclass
class Schedule:
    participants: int
    # rounds[r][t] = the participant numbers at table t+1 of round r+1, in seat order 1..10
    rounds: list[list[list[int]]]
    steps: int = 0
    seconds: float = 0.0
    # (step, seconds, lo, hi): the windows of allowed meetings reached, in order; the last is the schedule's
    stages: list[tuple[int, float, int, int]] = field(default_factory=list)
    bound: Bound | None = None  # what no schedule with these participants playing can beat

    def as_contract(self) -> dict[str, object]:
        return {"participants": self.participants, "rounds": self.rounds}

    def sitting_out(self, round_index: int) -> list[int]:
        playing = {p for table in self.rounds[round_index] for p in table}
        return [p for p in range(1, self.participants + 1) if p not in playing]


# --------------------------------------------------------------------------------------------------- validation


def _check(req: SeatingRequest) -> None:
    P, R = req.participants, req.rounds
    if P < TABLE_SIZE:
        raise SeatingImpossible(f"participants: at least {TABLE_SIZE} are needed for one table, got {P}")
    if P > 2000:
        raise SeatingImpossible(f"participants: at most 2000, got {P}")
    if R < 1 or R > 100:
        raise SeatingImpossible(f"rounds: between 1 and 100, got {R}")
    for a, b in req.avoid:
        for x in (a, b):
            if not 1 <= x <= P:
                raise SeatingImpossible(f"avoid: participant {x} is not between 1 and {P}")
        if a == b:
            raise SeatingImpossible(f"avoid: a pair needs two different participants, got {a},{b}")
    for r, gone in req.absent.items():
        if not 1 <= r <= R:
            raise SeatingImpossible(f"absent: round {r} is not between 1 and {R}")
        if P - len(gone) < TABLE_SIZE:
            raise SeatingImpossible(f"round {r}: fewer than {TABLE_SIZE} participants present")
    seen_seat, seen_player = set(), set()
    for lock in req.locks:
        if not 1 <= lock.round <= R or not 1 <= lock.seat <= TABLE_SIZE or not 1 <= lock.participant <= P:
            raise SeatingImpossible(f"lock: round {lock.round}, seat {lock.seat}, participant {lock.participant} "
                                    "is out of range")
        if lock.participant in req.absent.get(lock.round, ()):
            raise SeatingImpossible(f"lock: participant {lock.participant} is absent in round {lock.round}")
        tables = (P - len(req.absent.get(lock.round, ()))) // TABLE_SIZE
        if not 1 <= lock.table <= tables:
            raise SeatingImpossible(f"lock: round {lock.round} has {tables} tables, not table {lock.table}")
        if (lock.round, lock.table, lock.seat) in seen_seat:
            raise SeatingImpossible(f"lock: round {lock.round}, table {lock.table}, seat {lock.seat} is locked twice")
        if (lock.round, lock.participant) in seen_player:
            raise SeatingImpossible(f"lock: participant {lock.participant} is locked twice in round {lock.round}")
        seen_seat.add((lock.round, lock.table, lock.seat))
        seen_player.add((lock.round, lock.participant))


# --------------------------------------------------------------------------------------------------- who plays


def _playing(req: SeatingRequest, rng: np.random.Generator) -> list[list[int]]:
    """For every round, the participants (0-based) who play it: those who have played most sit out first."""
    P = req.participants
    order = rng.permutation(P)  # the seeded tie-break: a fixed rotation order
    rank = np.empty(P, dtype=np.int64)
    rank[order] = np.arange(P)
    games = np.zeros(P, dtype=np.int64)
    locked = {(lk.round, lk.participant - 1) for lk in req.locks}
    out = []
    for r in range(1, req.rounds + 1):
        gone = {p - 1 for p in req.absent.get(r, ())}
        present = [p for p in range(P) if p not in gone]
        tables = len(present) // TABLE_SIZE
        sit = len(present) - tables * TABLE_SIZE
        # must play: locked; then fewest games first; ties by the rotating draw
        present.sort(key=lambda p: ((r, p) not in locked, games[p], (rank[p] - r * sit) % P))
        play = present[: tables * TABLE_SIZE]
        if sum(1 for p in present[tables * TABLE_SIZE:] if (r, p) in locked):
            raise SeatingImpossible(f"round {r}: more locked participants than seats")
        games[play] += 1
        out.append(sorted(play))
    return out


# --------------------------------------------------------------------------------------------------- the search


class _Search:
    """Tabu search over swaps of two participants between tables of one round, tightening a window [lo, hi].

    The cost of a pair meeting c times is c² + `_INNER`·e² + `_OUTSIDE`·d² + `_KEEP`·k², e, d and k being how far
    c lies outside ⌊m⌋…⌈m⌉, the window aimed at and the window already reached; a pair to keep apart costs
    `_AVOID_WEIGHT` per meeting. A stage searches until no pair is outside the window (and no pair to keep apart
    shares a table), then the window narrows by one at the end farther from the mean m: a min-max descent on the
    extremes, with Σ c² as the tie-break that keeps the rest spread. A stage that finds no better schedule within
    `patience` steps (once more after a shake) is abandoned for the other end; windows that the bounds of
    `games.seating.bounds` prove impossible are never tried.
    """

    def __init__(self, req: SeatingRequest, playing: list[list[int]], rng: np.random.Generator):
        self.req, self.rng = req, rng
        P = self.P = req.participants
        self.meet = np.zeros((P, P), dtype=np.int64)
        self.apart = np.zeros((P, P), dtype=bool)
        for a, b in req.avoid:
            self.apart[a - 1, b - 1] = self.apart[b - 1, a - 1] = True
        self.upper = np.triu_indices(P, 1)
        self.limit = bound(P, playing)
        self.mean = self.limit.mean
        self.groups: list[np.ndarray] = []
        self.movable: list[np.ndarray] = []
        lock_at = {(lk.round - 1, lk.participant - 1): lk.table - 1 for lk in req.locks}
        self._set_window(0, req.rounds)
        for r, play in enumerate(playing):
            groups, movable = self._greedy(r, play, lock_at)
            self.groups.append(groups)
            self.movable.append(movable)
        c = self.meet[self.upper][~self.apart[self.upper]]
        self._set_window(int(c.min()) if len(c) else 0, int(c.max()) if len(c) else 0)

    def _set_window(self, lo: int, hi: int, keep: tuple[int, int] | None = None) -> None:
        """Aim at [lo, hi]; leaving `keep` (the window already reached) costs far more than staying outside it."""
        self.window = (lo, hi)
        c = np.arange(self.req.rounds + 2)

        def outside(lo: int, hi: int) -> np.ndarray:
            d: np.ndarray = np.maximum(0, lo - c) + np.maximum(0, c - hi)
            squared: np.ndarray = d * d
            return squared

        self.f = (c * c + _INNER * outside(int(np.floor(self.mean)), int(np.ceil(self.mean)))
                  + _OUTSIDE * outside(lo, hi) + (_KEEP * outside(*keep) if keep else 0))
        self.inc = np.append(self.f[1:] - self.f[:-1], 0)  # inc[c] = f(c+1) − f(c)
        self.dec = np.insert(self.f[:-1] - self.f[1:], 0, 0)  # dec[c] = f(c−1) − f(c)
        if self.groups:
            self.cost = self._cost()

    def _step_costs(self, m: np.ndarray, apart: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        inc = np.where(apart, _AVOID_WEIGHT, self.inc[m])
        dec = np.where(apart, -_AVOID_WEIGHT, self.dec[m])
        return inc, dec

    def _greedy(self, r: int, play: list[int], lock_at: Mapping[tuple[int, int], int]) -> tuple[np.ndarray, np.ndarray]:
        tables = len(play) // TABLE_SIZE
        members: list[list[int]] = [[] for _ in range(tables)]
        fixed: list[list[bool]] = [[] for _ in range(tables)]
        free = []
        for p in play:
            if (r, p) in lock_at:
                members[lock_at[(r, p)]].append(p)
                fixed[lock_at[(r, p)]].append(True)
            else:
                free.append(p)
        for p in self.rng.permutation(free):
            open_ = [t for t in range(tables) if len(members[t]) < TABLE_SIZE]
            costs = []
            for t in open_:
                inc, _ = self._step_costs(self.meet[p, members[t]], self.apart[p, members[t]])
                costs.append(int(inc.sum()))
            best = min(costs)
            choice = [t for t, c in zip(open_, costs, strict=True) if c == best]
            t = choice[int(self.rng.integers(len(choice)))]
            self.meet[p, members[t]] += 1
            self.meet[members[t], p] += 1
            members[t].append(int(p))
            fixed[t].append(False)
        return (np.array(members, dtype=np.int64).reshape(tables, TABLE_SIZE),
                ~np.array(fixed, dtype=bool).reshape(tables, TABLE_SIZE))

    def _cost(self) -> int:
        c = self.meet[self.upper]
        apart = self.apart[self.upper]
        return int(np.where(apart, _AVOID_WEIGHT * c, self.f[c]).sum())

    def outside(self, window: tuple[int, int] | None = None) -> int:
        """Pairs outside the window (the current one by default), and meetings of pairs to keep apart."""
        c = self.meet[self.upper]
        apart = self.apart[self.upper]
        lo, hi = window or self.window
        return int(np.where(apart, c, (c < lo) | (c > hi)).sum())

    def _swap(self, r: int, ta: int, ia: int, tb: int, ib: int) -> None:
        g = self.groups[r]
        a, b = g[ta, ia], g[tb, ib]
        X = np.delete(g[ta], ia)
        Y = np.delete(g[tb], ib)
        m = self.meet
        m[a, X] -= 1
        m[X, a] -= 1
        m[b, X] += 1
        m[X, b] += 1
        m[a, Y] += 1
        m[Y, a] += 1
        m[b, Y] -= 1
        m[Y, b] -= 1
        g[ta, ia], g[tb, ib] = b, a

    def _deltas(self, r: int, step: int, best_cost: int, tabu: np.ndarray) -> np.ndarray:
        """The change of the cost for every swap of two participants of round r (a matrix over its seats, in the
        order of `self.groups[r].reshape(-1)`); forbidden swaps (same table, locked, tabu without aspiration) get
        `_BIG`."""
        g = self.groups[r]
        tables = len(g)
        flat = g.reshape(-1)
        n = len(flat)
        tab_of = np.repeat(np.arange(tables), TABLE_SIZE)
        ix = np.ix_(flat, flat)
        inc, dec = self._step_costs(self.meet[ix], self.apart[ix])
        np.fill_diagonal(dec, 0)
        ts_inc = inc.reshape(n, tables, TABLE_SIZE).sum(2)  # ts_inc[i, t]: everyone at table t meets i once more
        own_dec = dec.reshape(n, tables, TABLE_SIZE).sum(2)[np.arange(n), tab_of]  # i's tablemates, once less
        cross = ts_inc[:, tab_of]  # cross[i, j] = ts_inc[i, table of j]
        # a = flat[i] leaves its table for b's, b = flat[j] the other way round; the pair a-b is unchanged
        delta = own_dec[:, None] + own_dec[None, :] + cross + cross.T - inc - inc.T
        mv = self.movable[r].reshape(-1)
        forbid = (tab_of[:, None] == tab_of[None, :]) | ~mv[:, None] | ~mv[None, :]
        held = tabu[r][flat] > step
        forbid |= (held[:, None] | held[None, :]) & (self.cost + delta >= best_cost)
        return np.where(forbid, _BIG, delta)

    def run(self) -> int:
        """Tighten the window while the search keeps up; leaves the schedule of the narrowest window reached.
        Returns the number of steps taken."""
        req = self.req
        self.rounds = [r for r, g in enumerate(self.groups) if len(g) >= 2 and self.movable[r].sum() >= 2]
        self.stages: list[tuple[int, float, int, int]] = []
        if not self.rounds:
            return 0
        self.tabu = np.zeros((len(self.groups), self.P), dtype=np.int64)
        self.tenure = max(2, len(self.groups[self.rounds[0]].reshape(-1)) // 4)
        # a step costs about (10·tables)²: bigger rounds give up after fewer steps, for about the same time
        self.patience = max(_PATIENCE // 3, _PATIENCE * 3 // len(self.groups[self.rounds[0]]))
        self.started = time.monotonic()
        self.deadline = self.started + req.time_limit
        self.step = 0
        # stage 0: the greedy draw's own range, until no pair to keep apart shares a table
        if not self._stage():
            return self.step
        window = self.window
        self.stages = [(self.step, self._elapsed(), *window)]
        narrowed = True
        while narrowed:
            lo, hi = window
            ends = [(lo, hi - 1), (lo + 1, hi)]
            if self.mean - lo > hi - self.mean:
                ends.reverse()
            narrowed = False
            for cand in ends:
                if not self.limit.allows(*cand) or self._out_of_time():
                    continue
                self._set_window(*cand, keep=window)
                # reached, or left with the best schedule inside the old window
                if self._stage(keep=window):
                    window, narrowed = cand, True
                    self.stages.append((self.step, self._elapsed(), *cand))
                    break
        self._set_window(*window)
        return self.step

    def _elapsed(self) -> float:
        return round(time.monotonic() - self.started, 3)

    def _out_of_time(self) -> bool:
        return self.step >= self.req.max_steps or time.monotonic() > self.deadline

    def _stage(self, keep: tuple[int, int] | None = None) -> bool:
        """Search until nobody is outside the window (True) or `patience` steps bring no better cost (False).
        On failure leaves the cheapest schedule found with nobody outside `keep` (the last window reached, which
        the starting schedule keeps; so the steps still bring the pairs closer together), or without `keep` the
        cheapest schedule found."""
        rng = self.rng
        best_cost = self.cost
        best = [g.copy() for g in self.groups]
        kept_cost, kept = best_cost, best
        if self.outside() == 0:
            return True
        last_gain = self.step
        shaken = False
        while not self._out_of_time():
            self.step += 1
            r = self.rounds[int(rng.integers(len(self.rounds)))]
            delta = self._deltas(r, self.step, best_cost, self.tabu)
            low = delta.min()
            if low >= _BIG:
                continue
            choice = np.argwhere(delta == low)
            i, j = choice[int(rng.integers(len(choice)))]
            ta, ia = divmod(int(i), TABLE_SIZE)
            tb, ib = divmod(int(j), TABLE_SIZE)
            g = self.groups[r]
            a, b = g[ta, ia], g[tb, ib]
            self._swap(r, ta, ia, tb, ib)
            self.cost += int(low)
            self.tabu[r, a] = self.tabu[r, b] = self.step + self.tenure + int(rng.integers(self.tenure + 1))
            if self.cost < best_cost:
                best_cost, last_gain = self.cost, self.step
                best = [x.copy() for x in self.groups]
                if self.outside() == 0:
                    return True
            if keep is not None and self.cost < kept_cost and self.outside(keep) == 0:
                kept_cost, kept = self.cost, [x.copy() for x in self.groups]
            if self.step - last_gain > self.patience:
                if shaken:
                    break
                # stuck: start once more from the best found, shaken a little
                self._restore(best)
                for _ in range(3):
                    rr = self.rounds[int(rng.integers(len(self.rounds)))]
                    mv = np.argwhere(self.movable[rr])
                    i1, i2 = rng.choice(len(mv), 2, replace=False)
                    (t1, s1), (t2, s2) = mv[i1], mv[i2]
                    if t1 != t2:
                        self._swap(rr, t1, s1, t2, s2)
                self.cost = self._cost()
                last_gain, shaken = self.step, True
        self._restore(best if keep is None else kept)
        return False

    def _restore(self, groups: list[np.ndarray]) -> None:
        self.groups = [g.copy() for g in groups]
        self.meet[:] = 0
        for g in self.groups:
            for table in g:
                self.meet[np.ix_(table, table)] += 1
        np.fill_diagonal(self.meet, 0)
        self.cost = self._cost()


# --------------------------------------------------------------------------------------------------- the seats


def _colour_block(games: list[list[int]], rng: np.random.Generator) -> list[list[int]]:
    """Edge-colour the bipartite graph games × participants with TABLE_SIZE colours (König: always possible when
    every participant is in at most TABLE_SIZE games). Returns, for each game, its participants in seat order."""
    n = TABLE_SIZE
    g_at: list[list[int]] = [[-1] * n for _ in games]  # game -> colour -> participant
    p_at: dict[int, list[int]] = {}  # participant -> colour -> game
    edges = [(gi, p) for gi, members in enumerate(games) for p in members]
    for k in rng.permutation(len(edges)):
        gi, p = edges[k]
        pc = p_at.setdefault(p, [-1] * n)
        free_g = [c for c in range(n) if g_at[gi][c] < 0]
        free_p = [c for c in range(n) if pc[c] < 0]
        common = [c for c in free_g if pc[c] < 0]
        if common:
            c = common[int(rng.integers(len(common)))]
        else:
            c1, c2 = free_g[0], free_p[0]  # c1 is used at p, c2 is used at gi
            # flip the c1/c2 alternating path starting at p; it cannot reach gi (bipartite parity), so after the
            # flip c1 is free at both ends of the new edge
            path = []  # (participant, game, colour)
            node_is_p, node, colour = True, p, c1
            while True:
                nxt = p_at[node][colour] if node_is_p else g_at[node][colour]
                if nxt < 0:
                    break
                path.append((node, nxt, colour) if node_is_p else (nxt, node, colour))
                node_is_p, node = not node_is_p, nxt
                colour = c2 if colour == c1 else c1
            for q, gg, old in path:
                p_at[q][old] = -1
                g_at[gg][old] = -1
            for q, gg, old in path:
                new = c2 if old == c1 else c1
                p_at[q][new] = gg
                g_at[gg][new] = q
            c = c1
        g_at[gi][c] = p
        pc[c] = gi
    return [[g_at[gi][c] for c in range(n)] for gi in range(len(games))]


def assign_seats(groups: Sequence[Sequence[Sequence[int]]], seed: int = 0,
                 locks: Iterable[Lock] = ()) -> list[list[list[int]]]:
    """Order each table's participants into seats 1..10 so nobody repeats a seat within a block of ten rounds.

    `groups[r][t]` are the participants of table t in round r (any order); the result has the same shape.
    """
    rng = np.random.default_rng(seed)
    locks = list(locks)
    out: list[list[list[int]]] = []
    for start in range(0, len(groups), SEAT_BLOCK):
        block = groups[start:start + SEAT_BLOCK]
        games = [list(table) for rnd in block for table in rnd]
        block_locks = [lk for lk in locks if start < lk.round <= start + SEAT_BLOCK]
        if block_locks:
            seated = _seats_cp_sat(block, start, block_locks, seed)
        else:
            seated = _colour_block(games, rng)
        it = iter(seated)
        for rnd in block:
            out.append([list(next(it)) for _ in rnd])
    return out


def _seats_cp_sat(block: Sequence[Sequence[Sequence[int]]], start: int, locks: list[Lock],
                  seed: int) -> list[list[int]]:
    """Seats with some of them locked: a pre-coloured edge colouring, which no simple path-flipping handles, so
    OR-Tools CP-SAT places everyone else (each seat once per table, each participant's seats distinct)."""
    from ortools.sat.python import cp_model  # noqa: PLC0415 — heavy import (OR-Tools), only when a seat is locked

    n = TABLE_SIZE
    model = cp_model.CpModel()
    games = [(r, t, list(table)) for r, rnd in enumerate(block) for t, table in enumerate(rnd)]
    x = {}
    for gi, (_, _, members) in enumerate(games):
        for p in members:
            for s in range(n):
                x[gi, p, s] = model.new_bool_var(f"x{gi}_{p}_{s}")
            model.add_exactly_one(x[gi, p, s] for s in range(n))
        for s in range(n):
            model.add_exactly_one(x[gi, p, s] for p in members)
    by_player: dict[int, list[int]] = {}
    for gi, (_, _, members) in enumerate(games):
        for p in members:
            by_player.setdefault(p, []).append(gi)
    for p, gis in by_player.items():
        for s in range(n):
            model.add_at_most_one(x[gi, p, s] for gi in gis)
    index = {(r, t): gi for gi, (r, t, _) in enumerate(games)}
    for lk in locks:
        found = index.get((lk.round - 1 - start, lk.table - 1))
        p = lk.participant - 1
        if found is None or (found, p, lk.seat - 1) not in x:
            raise SeatingImpossible(f"lock: participant {lk.participant} is not at table {lk.table} "
                                    f"in round {lk.round}")
        model.add(x[found, p, lk.seat - 1] == 1)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # deterministic, and the machine is shared
    solver.parameters.random_seed = seed
    solver.parameters.max_time_in_seconds = 20.0
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SeatingImpossible("locked seats: no seating keeps every locked seat and gives nobody the same seat "
                                "twice")
    seated = []
    for gi, (_, _, members) in enumerate(games):
        row = [-1] * n
        for p in members:
            for s in range(n):
                if solver.boolean_value(x[gi, p, s]):
                    row[s] = p
        seated.append(row)
    return seated


# --------------------------------------------------------------------------------------------------- entry points


def solve(req: SeatingRequest) -> Schedule:
    """The seating schedule for `req`, or SeatingImpossible with the reason."""
    t0 = time.perf_counter()
    _check(req)
    rng = np.random.default_rng(req.seed)
    playing = _playing(req, rng)
    search = _Search(req, playing, rng)
    steps = search.run()
    together = _avoid_together(search.groups, req.avoid)
    if together:
        a, b = together[0]
        raise SeatingImpossible(f"avoid: participants {a} and {b} could not be kept at different tables "
                                f"in every round ({len(together)} pair(s) sit together)")
    groups = [[list(map(int, t)) for t in g] for g in search.groups]
    seated = assign_seats(groups, seed=req.seed, locks=req.locks)
    rounds = [[[p + 1 for p in table] for table in rnd] for rnd in seated]
    return Schedule(req.participants, rounds, steps=steps, seconds=time.perf_counter() - t0,
                    stages=search.stages, bound=search.limit)


def _avoid_together(groups: list[np.ndarray], avoid: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out = []
    for a, b in avoid:
        for g in groups:
            if any((a - 1) in t and (b - 1) in t for t in g.tolist()):
                out.append((a, b))
                break
    return out


def random_schedule(participants: int, rounds: int, seed: int = 0) -> Schedule:
    """Random seating with the same sitting-out rule (for comparison in the benchmark)."""
    req = SeatingRequest(participants, rounds, seed=seed)
    _check(req)
    rng = np.random.default_rng(seed)
    playing = _playing(req, rng)
    out = []
    for play in playing:
        shuffled = rng.permutation(play) + 1
        out.append([list(map(int, shuffled[i:i + TABLE_SIZE])) for i in range(0, len(shuffled), TABLE_SIZE)])
    return Schedule(participants, out)
