"""What no seating can beat: proven limits on how evenly pairs can meet (pure Python, no Django).

`docs/seating.md` derives them. In short, for the participants who play each round (`playing`) and tables of ten:

* Counting. Participant a meets 9·g_a tablemates (with repeats) in g_a games among P − 1 others, so some pair of
  his meets at least ⌈9·g_a/(P − 1)⌉ times and some at most ⌊9·g_a/(P − 1)⌋ times.
* Second moment. Let N be the participants × games incidence matrix. Then N·Nᵀ = M + diag(g) (M the meetings)
  and ‖N·Nᵀ‖² = ‖Nᵀ·N‖² = Σ over pairs of games |g ∩ g'|². Two games of one round share nobody; a game of round r
  shares with the T' games of round r' exactly its players who play r', at best spread evenly, so Σ c² over the
  pairs has a lower bound S. A pair count between lo and hi has (hi − c)(c − lo) ≥ 0, so
  Σ c² ≤ (lo + hi)·Σ c − lo·hi·pairs (Bhatia–Davis): a window [lo, hi] whose right side is below S is impossible.

* Nets. With P = 100, ten tables and at least ten rounds that everybody plays, no pair meeting twice would make
  ten rounds a net of order 10 with ten parallel classes, i.e. eight mutually orthogonal Latin squares of order 10;
  a net of deficiency one always completes to an affine plane (Bruck), and there is no projective plane of order
  10 (Lam, Thiel and Swiercz 1989), so some pair meets at least twice.

When nobody sits out (P a multiple of ten) the bound holds for every schedule; otherwise it holds for the given
choice of who sits out when (the solver's: in turn).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

TABLE = 10


def _spread_squares(k: int, parts: int) -> int:
    """The least Σ x² over `parts` whole numbers summing to k (spread evenly)."""
    q, rem = divmod(k, parts)
    return (parts - rem) * q * q + rem * (q + 1) * (q + 1)


@dataclass(frozen=True)
class Bound:
    participants: int
    pairs: int
    total: int  # Σ c over the pairs: the meetings, fixed by who plays
    squares: int  # S: no schedule has Σ c² below it
    count_high: int  # some pair meets at least this often (counting)
    count_low: int  # some pair meets at most this often (counting)
    most: int  # largest number of meetings a pair can have (rounds)

    @property
    def mean(self) -> float:
        return self.total / self.pairs

    def allows(self, lo: int, hi: int) -> bool:
        """Could a schedule have every pair meet between lo and hi times? False means proven impossible."""
        if lo > self.count_low or hi < self.count_high or lo > hi:
            return False
        return (lo + hi) * self.total - lo * hi * self.pairs >= self.squares

    def least_range(self) -> int:
        """No schedule has max − min of the pairs' meetings below this."""
        return min(hi - lo for lo in range(self.most + 1) for hi in range(lo, self.most + 1) if self.allows(lo, hi))

    def windows(self, width: int) -> list[tuple[int, int]]:
        """The windows [lo, lo + width] the bounds allow."""
        return [(lo, lo + width) for lo in range(self.most + 1 - width) if self.allows(lo, lo + width)]


def bound(participants: int, playing: Sequence[Sequence[int]]) -> Bound:
    """The bound for `playing[r]`, the participants (any numbering) who play round r, ten to a table."""
    P = participants
    sets = [set(p) for p in playing]
    tables = [len(s) // TABLE for s in sets]
    games: dict[int, int] = {}
    for s in sets:
        for p in s:
            games[p] = games.get(p, 0) + 1
    pairs = P * (P - 1) // 2
    total = sum(t * TABLE * (TABLE - 1) // 2 for t in tables)
    # ‖Nᵀ·N‖²: every game with itself (10² each), then every game of round r with the games of round r'
    overlap = sum(t * TABLE * TABLE for t in tables)
    for r, s in enumerate(sets):
        for r2, s2 in enumerate(sets):
            if r == r2 or not tables[r] or not tables[r2]:
                continue
            common = len(s & s2)
            q, rem = divmod(common, tables[r])  # the shared players spread over round r's games, at best evenly
            overlap += (tables[r] - rem) * _spread_squares(q, tables[r2]) + rem * _spread_squares(q + 1, tables[r2])
    # ‖N·Nᵀ‖² = Σ_{a≠b} c_ab² + Σ_a g_a², the off-diagonal counted twice
    squares = -(-(overlap - sum(g * g for g in games.values())) // 2)
    nine = [9 * g for g in games.values()] + [0] * (P - len(games))  # who plays no round meets nobody
    count_high = max(-(-x // (P - 1)) for x in nine)
    if P == TABLE * TABLE and sum(len(s) == P for s in sets) >= TABLE:
        count_high = max(count_high, 2)  # no affine plane of order 10, so no net of ten classes (module docstring)
    count_low = min(x // (P - 1) for x in nine)
    return Bound(P, pairs, total, max(squares, _spread_squares(total, pairs)), count_high, count_low,
                 most=len(sets))
