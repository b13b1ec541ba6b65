"""The official game protocol and what is computed from it.

The protocol is stored as rows (game header, ten seats, one row per day and per night, removals, colours, judge
extras, adjustments) and converted to the pure engine's dataclasses by `games.protocol.selectors.protocol_of`. Scores are
materialised as `ScoreItem` rows and per-seat columns so pages never recompute a season.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.dateparse import parse_date
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from club.selectors import known_name
from games.rules.protocol import CITIZEN, DON, MAFIA, ROLES, SHERIFF
from games.rules.ruleset import FOUL_LIMIT_MAX, RuleSet

ROLE_CHOICES = [(CITIZEN, _("C — citizen (red)")), (MAFIA, _("M — mafia (black)")), (SHERIFF, _("S — sheriff")),
                (DON, _("D — don"))]
RESULT_CHOICES = [("red", _("Red win")), ("black", _("Black win")), ("draw", _("Draw"))]
POINTS: dict[str, Any] = {"max_digits": 12, "decimal_places": 6}


class RuleSetVersion(models.Model):
    """One version of a rule set. Presets are seeded by a data migration; a club edits its own copy.

    A version that a game was scored under is never edited in place: an edit makes a new version
    (games.rulesets.services.ruleset_update), and the game keeps the one it was scored with.
    """

    slug = models.SlugField(_("code"), max_length=60)
    version = models.PositiveIntegerField(_("version"), default=1)
    name = models.CharField(_("name"), max_length=120)
    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, null=True, blank=True,
                             related_name="rulesets", verbose_name=_("club"))
    based_on = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    is_preset = models.BooleanField(_("preset"), default=False)
    params = models.JSONField(_("parameters"))
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rule set")
        verbose_name_plural = _("rule sets")
        ordering = ["slug", "-version"]
        constraints = [models.UniqueConstraint(fields=["slug", "version"], name="ruleset_slug_version_unique")]

    def __str__(self) -> str:
        return f"{self.name} (v{self.version})" if self.version > 1 else self.name

    def ruleset(self) -> RuleSet:
        return RuleSet.from_dict(self.params)

    @property
    def is_used(self) -> bool:
        return self.games.exists()


class Tournament(models.Model):
    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="tournaments", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=200)
    ruleset = models.ForeignKey(RuleSetVersion, on_delete=models.PROTECT, related_name="tournaments",
                                verbose_name=_("rule set"))
    stages = models.JSONField(_("stages"), default=list, blank=True)
    difficult_roles = models.JSONField(_("difficult roles"), default=list, blank=True,
                                       help_text=_("002 III.14.3: role letters; empty = the rule set's default"))
    head_judge = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("head judge"))
    start_date = models.DateField(_("start date"), null=True, blank=True)
    end_date = models.DateField(_("end date"), null=True, blank=True)
    # what the home page lists of an event without a sign-up sheet (a sheet has its own start and place)
    start_time = models.TimeField(_("start time"), null=True, blank=True)
    place = models.CharField(_("place"), max_length=200, blank=True)
    # the seating schedule (games.tournaments.services): qualifying rounds, the draw's seed, published or not
    rounds = models.PositiveSmallIntegerField(_("qualifying rounds"), default=0)
    seating_seed = models.PositiveIntegerField(_("seating seed"), default=0)
    seating_published = models.BooleanField(_("seating published"), default=False)
    # hidden standings: from this round on, results are the judge staff's until the organiser reveals them
    hidden_from_round = models.PositiveSmallIntegerField(_("results hidden from round"), null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-start_date", "-created"]
        constraints = [models.UniqueConstraint(fields=["club", "name"], name="tournament_name_unique_in_club")]

    def __str__(self) -> str:
        return self.name

    def difficult_role_letters(self) -> tuple[str, ...]:
        return tuple(self.difficult_roles) or self.ruleset.ruleset().difficult_roles


class ClubEvening(models.Model):
    """A club evening: games outside a tournament, played on one date."""

    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="evenings", verbose_name=_("club"))
    date = models.DateField(_("date"))
    name = models.CharField(_("name"), max_length=200, blank=True)
    start_time = models.TimeField(_("start time"), null=True, blank=True)
    place = models.CharField(_("place"), max_length=200, blank=True)
    ruleset = models.ForeignKey(RuleSetVersion, on_delete=models.PROTECT, related_name="evenings",
                                verbose_name=_("rule set"))
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("club evening")
        verbose_name_plural = _("club evenings")
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        # the date in the reader's language ("1 декабря 2026"), never the ISO form
        return self.name or f"{_('Club evening')} {date_format(self.date, 'j E Y')}"


class Game(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")
        SIGNED = "signed", _("Signed")
        ANNULLED = "annulled", _("Annulled")

    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="games", verbose_name=_("club"))
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, null=True, blank=True,
                                   related_name="games", verbose_name=_("tournament"))
    evening = models.ForeignKey(ClubEvening, on_delete=models.CASCADE, null=True, blank=True,
                                related_name="games", verbose_name=_("club evening"))
    ruleset = models.ForeignKey(RuleSetVersion, on_delete=models.PROTECT, related_name="games",
                                verbose_name=_("rule set"))
    number = models.PositiveIntegerField(_("game number"))
    table = models.PositiveIntegerField(_("table"), null=True, blank=True)
    round = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    # set by the tournament's hide/reveal service: the result, protocol and scores are the judge staff's only,
    # and the game counts nowhere public (standings, ratings, statistics) until revealed
    results_hidden = models.BooleanField(_("results hidden"), default=False, db_index=True)
    stage = models.CharField(_("stage"), max_length=100, blank=True)
    date = models.DateField(_("date"))
    judge = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="judged_games", verbose_name=_("judge"))
    judge_name = models.CharField(_("judge"), max_length=120, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAFT)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    # The first "Стоп игра" of the live entry (002 I.1.5): a result entered again after an undo keeps it, so the
    # protest window (000 T6.3.1, 002 III.15.1) never moves; undo does not restore this field.
    stopped_at = models.DateTimeField(_("first stop"), null=True, blank=True)
    phase = models.CharField(_("phase"), max_length=4, blank=True, help_text="live entry: the current phase, e.g. D2")
    result = models.CharField(_("result"), max_length=5, choices=RESULT_CHOICES, blank=True)
    best_move = models.JSONField(_("best move"), null=True, blank=True)
    summary = models.JSONField(_("summary protocol"), null=True, blank=True)  # docs/rules.md I46, rules.interchange_parts
    signed_at = models.DateTimeField(_("signed at"), null=True, blank=True)
    signed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+", verbose_name=_("signed by"))
    replay_of = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="replays")
    version = models.PositiveIntegerField(default=1, help_text="optimistic concurrency: bumped on every write")
    created = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name, verbose_name_plural = _("game protocol"), _("game protocols")
        ordering = ["-date", "tournament_id", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], condition=Q(tournament__isnull=False),
                                               name="game_number_unique_in_tournament")]
        indexes = [models.Index(fields=["club", "date"]), models.Index(fields=["status"]),  # + the home page's two:
                   models.Index(fields=["club", "date", "ended_at"], name="game_club_latest"),  # its latest results
                   models.Index(fields=["club", "table"], condition=Q(status="in_progress"), name="game_in_progress"),
                   models.Index(fields=["results_hidden", "-date", "-id"], name="game_api_latest"),  # api.selectors
                   models.Index(fields=["club", "date", "result", "ruleset", "status", "results_hidden"],
                                name="game_club_stats")]  # the statistics page (games/migrations/0020)

    def __str__(self) -> str:
        # the date in the reader's words ("1 декабря 2026"), never the ISO form: titles and lists show it
        day = parse_date(self.date) if isinstance(self.date, str) else self.date  # a str until it is read back
        where = self.tournament.name if self.tournament is not None else (date_format(day, "j E Y") if day else "")
        return f"{where} — {_('game')} {self.number}"

    @property
    def listed_name(self) -> str:
        """The game named with its event and table, as a list of protests names it: «Кубок — стол 2, игра 36»,
        «Вечер пятницы — стол 1, игра 1» (without a table: «Кубок — игра 36»)."""
        if self.tournament is not None:
            event = self.tournament.name
        elif self.evening_id:
            event = str(self.evening)
        else:
            return str(self)
        if self.table:
            return f"{event} — {_('table %(table)s, game %(number)s') % {'table': self.table, 'number': self.number}}"
        return f"{event} — {_('game')} {self.number}"

    @property
    def judge_display(self) -> str:
        """The table judge as pages, sheets and exports name him: his player nickname in the game's club, else his
        full name, else the name written on the protocol, else (a login-only account) his login: a signed sheet
        always names its judge."""
        judge = self.judge if self.judge_id else None
        if judge is None:
            return self.judge_name
        return known_name(judge, self.club_id) or self.judge_name or judge.get_username()

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.SIGNED)

    @property
    def seated_by_schedule(self) -> bool:
        """A round's game of a tournament's schedule (games.tournaments.services): its seats are the organiser's, changed only
        on the schedule page; the judge plays them as given (the printed charts and the cards show them)."""
        return self.tournament_id is not None and self.round is not None

    @property
    def counts(self) -> bool:
        """Whether the game counts in scores and standings."""
        return self.is_finished and bool(self.result)

    @property
    def under_protest(self) -> bool:
        """A protest of this game awaits its decision: its scores and the standings are provisional.

        Lists annotate it (games.protocol.selectors.with_protest_flag) so that each row costs no query."""
        annotated = self.__dict__.get("pending_protest")
        if annotated is not None:
            return bool(annotated)
        if self.results_hidden:  # hidden results (games.visibility): a pending protest would tell of the game
            return False
        return self.protests.filter(status=Protest.Status.PENDING).exists()


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey("club.Player", on_delete=models.PROTECT, related_name="seats", verbose_name=_("player"))
    role = models.CharField(_("role"), max_length=1, choices=ROLE_CHOICES, blank=True)
    fouls = models.PositiveSmallIntegerField(_("fouls"), default=0)
    # the day whose speech the rule set's `speech_foul` costs (000 D6.4, 003 l.73; `games.rules.facts.third_foul_day`)
    # while the seat has that many fouls; cleared when a foul is taken back below it
    speech_lost_day = models.PositiveSmallIntegerField(_("speech lost on day"), null=True, blank=True)
    # materialised score (protocol columns "баллы" / "доп. баллы", 000 P7.8) and tie-break facts
    main = models.DecimalField(_("points"), default=Decimal(0), **POINTS)
    extras = models.DecimalField(_("extra points"), default=Decimal(0), **POINTS)
    total = models.DecimalField(_("total"), default=Decimal(0), **POINTS)
    tiebreak_extras = models.DecimalField(default=Decimal(0), **POINTS)
    won = models.BooleanField(default=False)
    first_night_death = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique_in_game"),
            models.UniqueConstraint(fields=["game", "player"], name="player_once_per_game"),
            models.CheckConstraint(condition=Q(number__gte=1, number__lte=10), name="seat_number_1_10"),
            # up to FOUL_LIMIT_MAX; the rule set's own limit: games.rules.consequences.foul_effect, checks.check_fouls
            models.CheckConstraint(condition=Q(fouls__gte=0, fouls__lte=FOUL_LIMIT_MAX), name="fouls_within_limit"),
            models.CheckConstraint(condition=Q(role__in=["", *ROLES]), name="role_letter"),
        ]
        indexes = [models.Index(fields=["player", "game"])]

    def __str__(self) -> str:
        return f"{self.number}. {self.player}"


class Day(models.Model):
    """Day N (index 1 = Day 1, "нулевой круг"). Nested lists keep the mafclub/1 shapes."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="days")
    index = models.PositiveSmallIntegerField()
    nominations = models.JSONField(null=True, blank=True)  # [{"by": 1, "nominee": 8, "withdrawn": false}]
    votes = models.JSONField(null=True, blank=True)  # [{"seat": 8, "votes": 6}]
    revotes = models.JSONField(default=list, blank=True)  # [[{"seat": .., "votes": ..}], …]
    lift_for = models.PositiveSmallIntegerField(null=True, blank=True)
    out = models.JSONField(default=list, blank=True)  # seats that left by vote or lift
    voters = models.JSONField(null=True, blank=True)  # who voted for whom: docs/rules.md I47, rules.interchange_parts
    spoken = models.JSONField(default=list, blank=True)  # seats in the order their speech ended (000 4.3.1)
    granted = models.JSONField(default=list, blank=True)  # seats the judge gave back the word the 3rd foul took

    class Meta:
        verbose_name = _("day")
        verbose_name_plural = _("days")
        ordering = ["game_id", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="day_index_unique"),
            models.CheckConstraint(condition=Q(index__gte=1), name="day_index_from_1"),
            models.CheckConstraint(condition=Q(lift_for__isnull=True) | Q(lift_for__lte=10), name="lift_0_10"),
        ]

    def __str__(self) -> str:
        return f"D{self.index}"


class Night(models.Model):
    """Night N (index 1 = the first shooting night, docs/rules.md I4)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="nights")
    index = models.PositiveSmallIntegerField()
    kill = models.PositiveSmallIntegerField(null=True, blank=True)  # None = miss
    don_check = models.PositiveSmallIntegerField(null=True, blank=True)
    sheriff_check = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("night")
        verbose_name_plural = _("nights")
        ordering = ["game_id", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="night_index_unique"),
            models.CheckConstraint(condition=Q(index__gte=1), name="night_index_from_1"),
            models.CheckConstraint(condition=Q(kill__isnull=True) | Q(kill__gte=1, kill__lte=10), name="kill_seat"),
        ]

    def __str__(self) -> str:
        return f"N{self.index}"


class Removal(models.Model):
    REASONS = [("fouls", _("4th foul")), ("disqualified", _("Disqualification")), ("ppk", _("Team defeat (ППК)"))]
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="removals")
    order = models.PositiveSmallIntegerField(default=0)
    seat = models.PositiveSmallIntegerField(_("seat"))
    reason = models.CharField(_("reason"), max_length=20, choices=REASONS)
    at = models.CharField(_("phase"), max_length=4)
    after_vote = models.BooleanField(default=False)
    note = models.CharField(_("note"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("removal")
        verbose_name_plural = _("removals")
        ordering = ["game_id", "order"]

    def __str__(self) -> str:
        return f"{self.seat}: {self.reason} {self.at}"


class RecordedColour(models.Model):
    """"Цвет под запись" (002 III.5)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="colours")
    order = models.PositiveSmallIntegerField(default=0)
    by = models.PositiveSmallIntegerField()
    target = models.PositiveSmallIntegerField()

    class Meta:
        verbose_name = _("recorded colour")
        verbose_name_plural = _("recorded colours")
        ordering = ["game_id", "order"]

    def __str__(self) -> str:
        return f"{self.by} → {self.target}"


class JudgeExtra(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="judge_extras")
    order = models.PositiveSmallIntegerField(default=0)
    seat = models.PositiveSmallIntegerField(_("seat"))
    points = models.DecimalField(_("points"), **POINTS)
    note = models.CharField(_("note"), max_length=500, blank=True)
    approved = models.BooleanField(_("approved by the head judge"), default=False)

    class Meta:
        verbose_name = _("judge extra")
        verbose_name_plural = _("judge extras")
        ordering = ["game_id", "order"]

    def __str__(self) -> str:
        return f"{self.seat}: {self.points}"


class Adjustment(models.Model):
    """A judge-entered (or protest-decided) item with its clause: III.5 ±0.3, III.6 −0.3/−0.5, …"""

    class Source(models.TextChoices):
        JUDGE = "judge", _("Judge")
        PROTEST = "protest", _("Protest decision")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="adjustments")
    order = models.PositiveSmallIntegerField(default=0)
    seat = models.PositiveSmallIntegerField(_("seat"))
    points = models.DecimalField(_("points"), **POINTS)
    clause = models.CharField(_("clause"), max_length=120)
    note = models.CharField(_("note"), max_length=500, blank=True)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.JUDGE)

    class Meta:
        verbose_name = _("adjustment")
        verbose_name_plural = _("adjustments")
        ordering = ["game_id", "order"]

    def __str__(self) -> str:
        return f"{self.seat}: {self.points} ({self.clause})"


class ScoreItem(models.Model):
    """One computed line of a seat's score (materialised by games.protocol.services.scoring.score_games)."""

    class Source(models.TextChoices):
        AUTO = "auto", _("Automatic")
        JUDGE = "judge", _("Judge")
        PROTEST = "protest", _("Protest decision")

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="score_items")
    kind = models.CharField(max_length=20)
    points = models.DecimalField(**POINTS)
    clause = models.CharField(max_length=120, blank=True)
    note = models.CharField(max_length=500, blank=True)
    effective = models.BooleanField(default=True)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.AUTO)

    class Meta:
        verbose_name = _("score item")
        verbose_name_plural = _("score items")
        ordering = ["seat_id", "id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.points}"


class GameAction(models.Model):
    """One judge action on the live protocol screen, in order: the audit trail, undo and idempotency.

    `action_id` is chosen by the browser for each click; a retried request with the same id is applied once.
    `before` keeps what the action overwrote, so the last action can be undone.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    action_id = models.CharField(max_length=64)
    kind = models.CharField(max_length=40)
    payload = models.JSONField(default=dict, blank=True)
    before = models.JSONField(default=dict, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    undone = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("game action")
        verbose_name_plural = _("game actions")
        ordering = ["game_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "action_id"], name="action_once_per_game"),
            models.UniqueConstraint(fields=["game", "seq"], name="action_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"


class Protest(models.Model):
    """A protest (000 T6.3, 002 III.15–16, App.; 003 l.127) and, once decided, its final decision."""

    class Category(models.TextChoices):
        RESULT = "result", _("Result")
        TECHNICAL_ERROR = "technical_error", _("Technical error of the judge")
        DISPUTED_DECISION = "disputed_decision", _("Disputed decision")
        NON_GAME_ADVANTAGE = "non_game_advantage", _("Non-game advantage")
        DISCIPLINARY_ADD = "disciplinary_add", _("Disciplinary: add a penalty")
        DISCIPLINARY_REMOVE = "disciplinary_remove", _("Disciplinary: remove a penalty")
        DQ_PENALTY = "dq_penalty", _("Disqualification penalty")
        EXTRAS = "extras", _("Extra points")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        REJECTED = "rejected", _("Rejected")
        UPHELD = "upheld", _("Upheld")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="protests")
    player = models.ForeignKey("club.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="protests",
                               verbose_name=_("filed by"))
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    filed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    category = models.CharField(_("category"), max_length=30, choices=Category.choices)
    text = models.TextField(_("protest"))
    filed_at = models.DateTimeField(_("filed at"))  # server time, or the time written on a paper protest
    # When the protest was entered on the site (server time): equals `filed_at` for a protest filed online; for a
    # paper protest it shows how long after the written time the judge recorded it.
    entered_at = models.DateTimeField(_("entered at"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("decided by"))
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    explanation = models.TextField(_("explanation"), blank=True)
    outcomes = models.JSONField(_("outcomes"), default=list, blank=True)  # [{"kind": "reverse_result", ...}]
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("protest")
        verbose_name_plural = _("protests")
        ordering = ["-filed_at"]

    def __str__(self) -> str:
        return f"{_('Protest')} #{self.pk} — {self.game.listed_name}"

    # Django 5.2's signature; django-stubs 6.1 describes 6.0's, which adds `returning_fields` (update on an upgrade)
    def _do_update(self, base_qs, using, pk_val, values, update_fields, forced_update):  # type: ignore[override]
        # 000 T6.3.4, 002 III.15.4 (docs/rules.md I44): a decision is final; the row of a decided protest never
        # changes. The save's UPDATE matches only a pending row, so the check costs no read of its own: when it
        # matched none, the row is either gone (Django inserts it) or decided (refused).
        if super()._do_update(base_qs.filter(status=self.Status.PENDING), using, pk_val, values, update_fields,  # type: ignore[call-arg]
                              forced_update):
            return True
        if base_qs.filter(pk=pk_val).exists():
            raise DecidedProtestIsFinal(pk_val)
        return False

    def delete(self, *args, **kwargs):
        if self._stored_status() not in (None, self.Status.PENDING):
            raise DecidedProtestIsFinal(self.pk)
        return super().delete(*args, **kwargs)

    @property
    def entered_later(self) -> bool:
        """Recorded on the site more than a minute after the time written on it (a paper protest)."""
        return self.entered_at is not None and self.entered_at - self.filed_at > dt.timedelta(minutes=1)

    @property
    def is_decided(self) -> bool:
        return self.status != self.Status.PENDING

    def _stored_status(self) -> str | None:
        if self.pk is None:
            return None
        return type(self).objects.filter(pk=self.pk).values_list("status", flat=True).first()


class DecidedProtestIsFinal(Exception):
    """A decided protest was about to be changed (000 T6.3.4; 002 III.15.4)."""

    def __init__(self, pk):
        super().__init__(f"protest #{pk} is decided; its decision is final and cannot be changed")


class Participant(models.Model):
    """A player registered to a tournament under a number; late entry and withdrawal by round."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="participants",
                                   verbose_name=_("tournament"))
    number = models.PositiveSmallIntegerField(_("number"))
    player = models.ForeignKey("club.Player", on_delete=models.PROTECT, related_name="participations",
                               verbose_name=_("player"))
    team = models.CharField(_("team"), max_length=120, blank=True,
                            help_text=_("Participants of one team never share a table."))
    family = models.CharField(_("relatives"), max_length=120, blank=True,
                              help_text=_("Relatives (the same mark) never share a table."))
    from_round = models.PositiveSmallIntegerField(_("plays from round"), default=1)
    withdrawn_after = models.PositiveSmallIntegerField(_("withdrawn after round"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="participant_number_unique"),
            models.UniqueConstraint(fields=["tournament", "player"], name="participant_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.player}"

    def plays(self, round_number: int) -> bool:
        return self.from_round <= round_number and (self.withdrawn_after is None
                                                    or round_number <= self.withdrawn_after)


class TournamentJudge(models.Model):
    """A table's judge for a tournament; never judges a table with his own team or relatives."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="table_judges",
                                   verbose_name=_("tournament"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("judge"))
    table = models.PositiveSmallIntegerField(_("table"))
    team = models.CharField(_("team"), max_length=120, blank=True)
    family = models.CharField(_("relatives"), max_length=120, blank=True)

    class Meta:
        verbose_name = _("table judge")
        verbose_name_plural = _("table judges")
        ordering = ["tournament", "table"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="tournament_judge_unique"),
            models.UniqueConstraint(fields=["tournament", "table"], name="tournament_judge_table_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.user}"


class SeatLock(models.Model):
    """A seat the organiser locked: a new draw of the schedule keeps this participant there."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="seat_locks")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="locks")

    class Meta:
        verbose_name = _("seat lock")
        verbose_name_plural = _("seat locks")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round", "participant"], name="seat_lock_once_a_round"),
            models.UniqueConstraint(fields=["tournament", "round", "table", "seat"], name="seat_lock_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.round}/{self.table}/{self.seat}: {self.participant_id}"
