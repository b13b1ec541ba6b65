"""How well does each rating recover a hidden skill? Elo (ratings.elo.formula), OpenSkill (Plackett–Luce) and points per game.

    .venv/bin/python bench/bench_skill.py [--players 100] [--games 3000] [--beta 1.5] [--seed 1] [--k 20]

Simulation: every player has a hidden skill ~ N(0, 1). A game seats 10 random players; games.rules.generate makes a
valid random protocol (roles, days, nights, result); it is kept with probability P(result | the teams' skills), where
P(red wins) = 1 / (1 + exp(−beta × (mean red skill − mean black skill))) and a draw is kept with probability ½ — so
the results depend on the skills while every protocol stays one the rules engine accepts (rejection sampling).
Points are scored by games.rules.scoring (rule set `xcraft`, no Ci, so a game's points are its own).

The first 80% of the games train; every game of the last 20% is predicted from the ratings just before it, then
rated. Printed per rating:

* Spearman correlation of the ratings after the training games with the hidden skill;
* Brier score of P(red wins) on the last 20% (a draw counts as ½): "own" is the rating's own prediction (Elo's
  expected score from the team averages, OpenSkill's predict_win), "fitted" a logistic curve of the teams' rating
  difference fitted on the training games (so the three ratings are compared on the same footing, red's base win
  rate included); the base rate alone (always the training share of red wins) is the floor to beat.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.generate import generate_game  # noqa: E402
from games.rules.ruleset import get_preset  # noqa: E402
from games.rules.scoring import score_game  # noqa: E402
from ratings.elo import formula as elo  # noqa: E402

BLACK_ROLES = {"Ч", "Д"}


def simulate(players: int, games: int, beta: float, seed: int):
    rng = random.Random(seed)
    skill = {f"p{i:03d}": rng.gauss(0, 1) for i in range(players)}
    names = list(skill)
    ruleset = get_preset("xcraft")
    out = []
    while len(out) < games:
        seated = rng.sample(names, 10)
        while True:
            p = generate_game(rng, ruleset, players=seated, number=len(out) + 1)
            red = [s.player for s in p.seats if s.role not in BLACK_ROLES]
            black = [s.player for s in p.seats if s.role in BLACK_ROLES]
            diff = sum(skill[x] for x in red) / len(red) - sum(skill[x] for x in black) / len(black)
            p_red = 1 / (1 + math.exp(-beta * diff))
            keep = {"red": p_red, "black": 1 - p_red, "draw": 0.5}.get(p.result, 0)
            if rng.random() < keep:
                break
        score = score_game(p, ruleset)
        points = {s.player: float(s.total) for s in score.seats}
        y = {"red": 1.0, "black": 0.0}.get(p.result, 0.5)
        out.append((red, black, y, points))
    return skill, out


def spearman(a: list[float], b: list[float]) -> float:
    def ranks(values):
        order = sorted(range(len(values)), key=lambda i: values[i])
        r = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2
            i = j + 1
        return r

    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    return cov / math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))


def fit_logistic(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """P = 1/(1+exp(−(a + b·x))) by Newton's method on the log-loss (y may be ½ for a draw)."""
    a = b = 0.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys, strict=True):
            p = 1 / (1 + math.exp(-(a + b * x)))
            ga += p - y
            gb += (p - y) * x
            w = p * (1 - p)
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        if abs(det) < 1e-12:
            break
        a -= (hbb * ga - hab * gb) / det
        b -= (haa * gb - hab * ga) / det
    return a, b


class EloRating:
    name = "Elo"

    def __init__(self, k: float):
        self.k, self.r = k, {}

    def diff(self, red, black):
        avg = lambda team: sum(self.r.get(x, elo.DEFAULT_START) for x in team) / len(team)  # noqa: E731
        return avg(red) - avg(black)

    def own(self, red, black):
        return 1 / (1 + 10 ** (-self.diff(red, black) / 400))

    def update(self, red, black, y, points):
        seats = [elo.Seat(x, elo.RED, y) for x in red] + [elo.Seat(x, elo.BLACK, 1 - y) for x in black]
        elo.apply(elo.game_changes(seats, self.r, k=self.k), self.r)

    def value(self, player):
        return self.r.get(player, elo.DEFAULT_START)


class OpenSkillRating:
    name = "OpenSkill (Plackett–Luce)"

    def __init__(self):
        from openskill.models import PlackettLuce

        self.model, self.r = PlackettLuce(), {}

    def _get(self, x):
        if x not in self.r:
            self.r[x] = self.model.rating(name=x)
        return self.r[x]

    def diff(self, red, black):
        return (sum(self._get(x).mu for x in red) / len(red)) - (sum(self._get(x).mu for x in black) / len(black))

    def own(self, red, black):
        return self.model.predict_win([[self._get(x) for x in red], [self._get(x) for x in black]])[0]

    def update(self, red, black, y, points):
        ranks = [0, 1] if y == 1 else [1, 0] if y == 0 else [0, 0]
        new_red, new_black = self.model.rate([[self._get(x) for x in red], [self._get(x) for x in black]],
                                             ranks=ranks)
        for x, rating in zip(red, new_red, strict=True):
            self.r[x] = rating
        for x, rating in zip(black, new_black, strict=True):
            self.r[x] = rating

    def value(self, player):
        return self._get(player).ordinal()


class PointsPerGame:
    name = "Points per game"

    def __init__(self):
        self.total, self.games = {}, {}

    def value(self, player):
        return self.total.get(player, 0.0) / self.games[player] if self.games.get(player) else 0.0

    def diff(self, red, black):
        return sum(self.value(x) for x in red) / len(red) - sum(self.value(x) for x in black) / len(black)

    own = None

    def update(self, red, black, y, points):
        for x in red + black:
            self.total[x] = self.total.get(x, 0.0) + points[x]
            self.games[x] = self.games.get(x, 0) + 1


def evaluate(rating, skill, games, cut):
    xs, ys = [], []
    for red, black, y, points in games[:cut]:
        xs.append(rating.diff(red, black))
        ys.append(y)
        rating.update(red, black, y, points)
    players = sorted(skill)
    rho = spearman([rating.value(p) for p in players], [skill[p] for p in players])
    a, b = fit_logistic(xs, ys)
    own = fitted = 0.0
    for red, black, y, points in games[cut:]:
        if rating.own is not None:
            own += (rating.own(red, black) - y) ** 2
        fitted += (1 / (1 + math.exp(-(a + b * rating.diff(red, black)))) - y) ** 2
        rating.update(red, black, y, points)
    n = len(games) - cut
    return rho, (own / n if rating.own is not None else None), fitted / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--beta", type=float, default=1.5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--k", type=float, default=elo.DEFAULT_K, help="Elo K (the club default: 20)")
    args = parser.parse_args()
    skill, games = simulate(args.players, args.games, args.beta, args.seed)
    cut = int(len(games) * 0.8)
    base = sum(y for *_, y, _ in [(g[0], g[1], g[2], g[3]) for g in games[:cut]]) / cut
    brier_base = sum((base - g[2]) ** 2 for g in games[cut:]) / (len(games) - cut)
    red_share = sum(1 for g in games if g[2] == 1) / len(games)
    print(f"skill recovery: {args.players} players, {len(games)} games (red won {red_share:.1%}), beta {args.beta}, "
          f"seed {args.seed}; train {cut}, predict {len(games) - cut}")
    print(f"{'rating':28} {'Spearman ρ':>11} {'Brier own':>10} {'Brier fitted':>13}")
    print(f"{'base rate only':28} {'':>11} {'':>10} {brier_base:13.4f}")
    for rating in (EloRating(args.k), OpenSkillRating(), PointsPerGame()):
        rho, own, fitted = evaluate(rating, skill, games, cut)
        name = rating.name + (f" K={args.k:g}" if isinstance(rating, EloRating) else "")
        print(f"{name:28} {rho:11.3f} {own if own is not None else float('nan'):10.4f} {fitted:13.4f}")


if __name__ == "__main__":
    main()
