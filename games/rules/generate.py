"""Simulated games: complete, valid, finished protocols under a rule set (for property tests and the bench).

`generate_game(rng, ruleset)` plays one game phase by phase with the same primitives the validator uses
(`win_condition`, `QuietStreak`, `vote_cancellations`, `matching_lift_ban`), so a generated protocol is accepted
by `validate()` by construction — the hypothesis tests check exactly that. Randomness comes only from `rng`:
the same seed gives the same game. Pure Python, about 0.2 ms per game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from datetime import date
from decimal import Decimal
from functools import lru_cache

from .facts import best_move_right
from .protocol import (
    BLACK_ROLES,
    CITIZEN,
    DISQUALIFIED,
    DON,
    DRAW,
    FOULS,
    MAFIA,
    PPK,
    RED,
    SEATS,
    SHERIFF,
    Adjustment,
    Colour,
    Day,
    JudgeExtra,
    Night,
    Nomination,
    Protocol,
    Removal,
    SeatEntry,
    Tally,
    team_of,
)
from .ruleset import DRAW_THREE_NIGHTS, DRAW_THREE_NIGHTS_AND_DAYS, THREE_MISSES_RED_WIN, RuleSet
from .validate import QuietStreak, other_team, vote_cancellations, win_condition
from .votes import matching_lift_ban

_STALL_RULES = (DRAW_THREE_NIGHTS_AND_DAYS, DRAW_THREE_NIGHTS, THREE_MISSES_RED_WIN)
ROLE_DECK = (CITIZEN,) * 6 + (MAFIA,) * 2 + (SHERIFF, DON)

_ADJECTIVES = (
    "Тихий", "Хитрый", "Серый", "Белый", "Чёрный", "Рыжий", "Старый", "Дикий", "Ночной", "Лунный",
    "Весёлый", "Мудрый", "Быстрый", "Злой", "Добрый",
)
_NOUNS = (
    "Лис", "Волк", "Кот", "Ворон", "Медведь", "Барон", "Шмель", "Сокол", "Филин", "Ёж", "Граф", "Пират",
    "Лекарь", "Мельник",
)
DEFAULT_POOL: tuple[str, ...] = tuple(f"{a} {n}" for a in _ADJECTIVES for n in _NOUNS)[:200]
_JUDGES = ("Иванов", "Петрова", "Смирнов", "Кузнецова", "Попов", "Волкова", "Соколов", "Лебедева")
_STAGES = ("Отбор", "Полуфинал", "Финал", "Клубный вечер")
_FIRST_DATE = date(2024, 9, 1).toordinal()
_NOTES = ("лидер стола", "верная версия", "точные проверки", "сильная игра в критике", "оценка +3 по шкале")

# How often rare events happen (per day / night); tuned so ties, lifts, removals and draws all show up.
P_NOMINATE = (0.3, 0.55)  # Day 1, later days
P_FORCED_TIE = 0.2
P_REMOVAL_BEFORE_VOTE = 0.015
P_REMOVAL_AFTER_VOTE = 0.008
P_REMOVAL_AT_NIGHT = 0.008
P_PPK = 0.08  # share of removals that are ППК
P_KILL = 0.78
P_WITHDRAW = 0.05
P_NOMINATE_BLACK = 0.2  # the city is not blind: blacks are nominated and voted more often than chance
BLACK_VOTE_WEIGHT = 1.3
P_STALL = 0.08  # a game in which, from Day 3, nobody is nominated and mafia misses: the draw rule decides


def generate_game(
    rng: random.Random, ruleset: RuleSet, *, players: list[str] | None = None, number: int = 1
) -> Protocol:
    """One simulated, valid, finished game under `ruleset`."""
    return _Simulation(rng, ruleset, players, number).run()


def generate_games(
    n: int, ruleset: RuleSet, *, seed: int = 0, player_pool: Iterable[str] | None = None
) -> Iterator[Protocol]:
    """`n` games numbered 1..n, players drawn from `player_pool` (default: ~200 generated nicknames)."""
    rng = random.Random(seed)
    pool = list(player_pool) if player_pool is not None else list(DEFAULT_POOL)
    if len(pool) < 10:
        raise ValueError("a player pool needs at least 10 nicknames")
    for number in range(1, n + 1):
        yield generate_game(rng, ruleset, players=rng.sample(pool, 10), number=number)


@lru_cache(maxsize=64)
def _judge_steps(low: Decimal, high: Decimal) -> tuple[Decimal, ...]:
    """0.1-steps in [low, high], zero excluded (a zero extra is no extra)."""
    step = Decimal("0.1")
    value = max(low, step)
    steps = []
    while value <= high:
        steps.append(value)
        value += step
    return tuple(steps)


class _Simulation:
    def __init__(self, rng: random.Random, ruleset: RuleSet, players: list[str] | None, number: int) -> None:
        self.rng, self.rs = rng, ruleset
        players = list(players) if players is not None else rng.sample(DEFAULT_POOL, 10)
        if len(players) != 10:
            raise ValueError("a game needs exactly 10 players")
        roles = list(ROLE_DECK)
        rng.shuffle(roles)
        self.roles = dict(zip(SEATS, roles, strict=False))
        self.seats = [SeatEntry(seat, players[seat - 1], roles[seat - 1]) for seat in SEATS]
        self.protocol = Protocol(seats=self.seats, number=number)
        self.alive = list(SEATS)
        self.streak = QuietStreak(ruleset.draw_rule)
        self.result: str | None = None
        self.at_first_kill: list[int] = []
        # A stall needs a draw rule to end it (001 has none: the game goes on).
        self.stall_from = 3 if ruleset.draw_rule in _STALL_RULES and rng.random() < P_STALL else None

    # ------------------------------------------------------------------ the game
    def run(self) -> Protocol:
        self._deal_fouls()
        number = 0
        while self.result is None:
            number += 1
            self._day(number)
            if self.result is None:
                self._night(number)
        protocol = self.protocol
        protocol.result = self.result
        self._best_move()
        self._colours()
        self._judge_extras()
        self._adjustments()
        self._header()
        return protocol

    def _deal_fouls(self) -> None:
        for entry, roll in zip(self.seats, self.rng.choices((0, 0, 0, 0, 0, 1, 1, 1, 2, 3), k=10), strict=False):
            entry.fouls = roll

    def _check_win(self) -> None:
        if self.result is None:
            self.result = win_condition(self.alive, self.roles)

    def _remove(self, seat: int, code: str, *, after_vote: bool = False) -> None:
        """A removal (000 D6.5/D6.7/D6.8): 4th foul, disqualification, rarely a team defeat."""
        roll = self.rng.random()
        if roll < P_PPK:
            reason = PPK
        elif roll < 0.55:
            reason = FOULS
            self.seats[seat - 1].fouls = 4
        else:
            reason = DISQUALIFIED
        self.protocol.removals.append(Removal(seat, reason, code, after_vote))
        self.alive.remove(seat)
        if reason == PPK:
            self.result = other_team(team_of(self.roles[seat]))
        else:
            self._check_win()

    def _after_phase(self, kind: str, before: int) -> None:
        if self.result is None:
            outcome = self.streak.after_phase(kind, len(self.alive) == before)
            if outcome is not None:
                self.result = outcome

    # ------------------------------------------------------------------ day
    def _day(self, number: int) -> None:
        rng, alive, code = self.rng, self.alive, f"D{number}"
        day = Day(nominations=[])
        self.protocol.days.append(day)
        before = len(alive)
        nominees = self._nominate(day, number)
        if rng.random() < P_REMOVAL_BEFORE_VOTE:
            self._remove(rng.choice(alive), code)
            if self.result is not None:
                return
        if not (self.protocol.removals and vote_cancellations(self.protocol, self.rs).get(number)):
            self._vote(day, number, nominees)
        for seat in day.out:
            alive.remove(seat)
        if day.out:
            self._check_win()
        if self.result is None and rng.random() < P_REMOVAL_AFTER_VOTE:
            self._remove(rng.choice(alive), code, after_vote=True)
        self._after_phase("D", before)

    def _nominate(self, day: Day, number: int) -> list[int]:
        """000 4.4.2–4.4.4: in speech order, one nomination per speaker, a seat nominated once."""
        rng, alive = self.rng, self.alive
        chance = P_NOMINATE[0] if number == 1 else P_NOMINATE[1]
        if self._stalled(number):
            chance = 0.0
        blacks = [seat for seat in alive if self.roles[seat] in BLACK_ROLES]
        count = len(alive)
        start = (number - 1) % count
        nominees: list[int] = []
        if day.nominations is None:
            day.nominations = []
        nominations = day.nominations
        for i in range(count):
            if rng.random() >= chance:
                continue
            speaker = alive[(start + i) % count]
            nominee = rng.choice(blacks) if blacks and rng.random() < P_NOMINATE_BLACK else rng.choice(alive)
            if nominee in nominees:
                continue
            if self.rs.nomination_withdrawal and rng.random() < P_WITHDRAW:
                nominations.append(Nomination(speaker, nominee, withdrawn=True))  # 001 r.21, 003 l.49
                continue
            nominations.append(Nomination(speaker, nominee))
            nominees.append(nominee)
        return nominees

    def _vote(self, day: Day, number: int, nominees: list[int]) -> None:
        """000 4.4.12–4.4.15: main round, re-votes among the tied, the lift vote."""
        voters = len(self.alive)
        if not nominees or (number == 1 and len(nominees) == 1):
            return  # 000 4.4.13
        if len(nominees) == 1:
            day.votes = [Tally(nominees[0], voters)]
            day.out = [nominees[0]]
            return
        day.votes = self._tally(nominees, voters)
        tallies, tied = day.votes, None
        while True:
            top = max(t.votes for t in tallies)
            leaders = [t.seat for t in tallies if t.votes == top]
            if len(leaders) == 1:
                day.out = leaders
                return
            if leaders == tied:
                self._lift(day, number, leaders, voters)
                return
            tied = leaders
            tallies = self._tally(leaders, voters)
            day.revotes.append(tallies)

    def _tally(self, candidates: list[int], voters: int) -> list[Tally]:
        rng, k = self.rng, len(candidates)
        if voters % k == 0 and rng.random() < P_FORCED_TIE:
            counts = [voters // k] * k
        else:
            weights = [BLACK_VOTE_WEIGHT if self.roles[seat] in BLACK_ROLES else 1 for seat in candidates]
            picks = rng.choices(range(k), weights, k=voters)
            counts = [picks.count(i) for i in range(k)]
        return [Tally(seat, votes) for seat, votes in zip(candidates, counts, strict=False)]

    def _lift(self, day: Day, number: int, tied: list[int], voters: int) -> None:
        if len(tied) >= voters or matching_lift_ban(self.rs.lift_bans, alive=voters, tied=len(tied), day=number):
            return  # 000 S7.5/S7.6/S7.10, 002 I.6.18.1/I.8.6/I.8.7: night falls
        day.lift = self.rng.randint(0, voters)
        if day.lift * 2 > voters:
            day.out = list(tied)

    # ------------------------------------------------------------------ night
    def _night(self, number: int) -> None:
        rng, alive, code = self.rng, self.alive, f"N{number}"
        night = Night()
        self.protocol.nights.append(night)
        before = len(alive)
        self._checks(night)
        if rng.random() < P_REMOVAL_AT_NIGHT:
            self._remove(rng.choice(alive), code)
            if self.result is not None:
                return
        if number == 1:
            self.at_first_kill = list(alive)
        if not self._stalled(number) and (number >= 8 or rng.random() < P_KILL):
            reds = [seat for seat in alive if self.roles[seat] not in BLACK_ROLES]
            night.kill = rng.choice(reds) if reds and rng.random() < 0.9 else rng.choice(alive)
            alive.remove(night.kill)
            self._check_win()
        self._after_phase("N", before)

    def _stalled(self, number: int) -> bool:
        return self.stall_from is not None and number >= self.stall_from

    def _checks(self, night: Night) -> None:
        """000 4.5.6–4.5.8: one check each by a living Don and Sheriff."""
        rng, alive = self.rng, self.alive
        for role, attr in ((DON, "don_check"), (SHERIFF, "sheriff_check")):
            checker = next(seat for seat, r in self.roles.items() if r == role)
            if checker in alive and rng.random() < 0.9:
                target = rng.choice(alive)
                if target != checker:
                    setattr(night, attr, target)

    # ------------------------------------------------------------------ after the game
    def _best_move(self) -> None:
        """000 BM-1, 002 I.7.8: the Night-1 victim names up to three seats, when entitled."""
        entitled, _clause = best_move_right(self.protocol, self.rs)
        if not entitled or self.rng.random() < 0.1:
            return
        victim = self.protocol.nights[0].kill
        candidates = [seat for seat in self.at_first_kill if seat != victim]
        size = min(len(candidates), self.rng.choice((0, 1, 2, 3, 3, 3, 3, 3, 3, 3)))
        self.protocol.best_move = self.rng.sample(candidates, size)

    def _colours(self) -> None:
        """002 III.5: a night victim may leave one colour for the record."""
        if not self.rs.colours_enabled:
            return
        for night in self.protocol.nights:
            if night.kill is not None and self.rng.random() < 0.3:
                target = self.rng.choice([seat for seat in SEATS if seat != night.kill])
                self.protocol.colours.append(Colour(night.kill, target))

    def _judge_extras(self) -> None:
        """Decision 5: random judge extras that respect every limit of the rule set."""
        rs, rng = self.rs, self.rng
        if self.result == DRAW and not rs.judge_extras_in_draw:
            return  # 000 T6.1.6
        values = rs.judge_values or _judge_steps(rs.judge_min, rs.judge_max)
        if not values:
            return
        excluded = set()
        if rs.best_move_excludes_judge_extra and self.protocol.best_move is not None:
            excluded.add(self.protocol.nights[0].kill)  # 002 III.11: keep clear of the BM/judge exclusivity
        chosen: list[tuple[int, Decimal]] = []
        for seat in rng.sample(SEATS, rng.choice((0, 1, 2, 2, 3, 3, 4))):
            value = rng.choice(values)
            if seat not in excluded and self._judge_allowed(chosen, seat, value):
                chosen.append((seat, value))
        approval = rs.judge_approval_from
        self.protocol.judge_extras = [
            JudgeExtra(seat, value, note=rng.choice(_NOTES), approved=approval is not None and value >= approval)
            for seat, value in chosen
        ]

    def _judge_allowed(self, chosen: list[tuple[int, Decimal]], seat: int, value: Decimal) -> bool:
        rs = self.rs
        extras = chosen + [(seat, value)]
        if rs.judge_max_recipients is not None and len(extras) > rs.judge_max_recipients:
            return False  # 000 T6.1.1
        if rs.judge_total_cap is not None and sum(v for _, v in extras) > rs.judge_total_cap:
            return False  # 000 T6.1.2
        team = team_of(self.roles[seat])
        cap = rs.judge_winner_cap if team == self.result else rs.judge_loser_cap
        if self.result == DRAW:
            cap = min((c for c in (rs.judge_winner_cap, rs.judge_loser_cap) if c is not None), default=None)
        if cap is not None and value > cap:
            return False  # 000 T6.1.3, T6.1.4
        if not rs.judge_min <= value <= rs.judge_max:
            return False
        return self._team_allowed(team, [v for s, v in extras if team_of(self.roles[s]) == team])

    def _team_allowed(self, team: str | None, team_values: list[Decimal]) -> bool:
        """Whether one team's judge extras (the one being tried among them) keep the team's limits."""
        rs = self.rs
        team_sum = sum(team_values, Decimal(0))
        if rs.judge_team_cap and team is not None and team_sum > rs.judge_team_cap.get(team, team_sum):
            return False  # 002 III.4
        top = rs.judge_top_exclusive
        if top is not None and len(team_values) > 1 and any(v >= top for v in team_values):
            return False  # 002 III.4.2
        second = rs.judge_second_value
        if second is not None and second in team_values:
            partners = list(team_values)
            partners.remove(second)
            partner_max = rs.judge_second_partner_max
            if len(partners) > 1 or (partner_max is not None and any(v > partner_max for v in partners)):
                return False  # 002 III.4.3
        return True

    def _adjustments(self) -> None:
        """Occasionally a destructive −0.3 (002 III.6/-0.3 #1: misses) to a black of a team that lost or drew."""
        catalogue = self.rs.destructive_catalogue
        if not catalogue or self.result not in (RED, DRAW) or self.rng.random() >= 0.1:
            return
        blacks = [seat for seat in SEATS if self.roles[seat] in BLACK_ROLES]
        self.protocol.adjustments.append(
            Adjustment(self.rng.choice(blacks), Decimal("-0.3"), f"{catalogue}/-0.3 #1", "промахи при чёткой динамике")
        )

    def _header(self) -> None:
        rng, protocol = self.rng, self.protocol
        protocol.table = rng.randint(1, 4)
        protocol.stage = rng.choice(_STAGES)
        protocol.date = date.fromordinal(_FIRST_DATE + rng.randrange(365)).isoformat()
        protocol.judge = rng.choice(_JUDGES)
        protocol.ended_at = f"{protocol.date}T{rng.randint(12, 23):02d}:{rng.randrange(60):02d}:00+03:00"
