"""Stored facts of the standings: the lot is drawn once and kept, so a page shows the same order every time."""

import datetime as dt
from typing import TYPE_CHECKING, Any, cast

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ratings.statistics.registry import POINTS, contribute_facts, contribute_statistics


class Lot(models.Model):
    """The lot number of a player in a tournament (000 T6.2.4, 002 III.14.6): lower ranks first on a full tie."""

    tournament = models.ForeignKey("games.Tournament", on_delete=models.CASCADE, related_name="lots")
    player = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="+")
    number = models.PositiveIntegerField(_("lot"))
    drawn_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("lot")
        verbose_name_plural = _("lots")
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="lot_once_per_player")]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.player_id} → {self.number}"


class Season(models.Model):
    """A club's rating period (a date range the club admin defines). A calendar year is made by default."""

    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="seasons", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=120)
    start = models.DateField(_("start date"))
    end = models.DateField(_("end date"))

    history = HistoricalRecords()  # who created, moved or deleted a season (ratings.seasons.services)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-start", "name"]
        constraints = [
            models.CheckConstraint(condition=models.Q(end__gte=models.F("start")), name="season_end_after_start"),
            # One season per date range and club: two scorings making a year's default season at once keep one
            # (get_or_create survives the race only with a unique constraint), and two seasons of the same dates
            # would hold the same table twice.
            models.UniqueConstraint(fields=["club", "start", "end"], name="season_unique_dates"),
        ]

    def __str__(self) -> str:
        return self.name

    def covers(self, date) -> bool:
        return self.start <= date <= self.end


class RatingScope(models.Model):
    """A set of games the stored aggregates are kept for: one tournament, or the club's games in a season.

    `version` is bumped in the transaction that changes the scores; cached pages are keyed by it, so a cached
    table can never outlive the scores it was rendered from (unlike a counter kept in the cache itself).
    """

    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", _("Tournament")
        SEASON = "season", _("Season")

    kind = models.CharField(max_length=12, choices=Kind.choices)
    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="+")
    tournament = models.OneToOneField("games.Tournament", on_delete=models.CASCADE, null=True, blank=True,
                                      related_name="rating_scope")
    season = models.OneToOneField(Season, on_delete=models.CASCADE, null=True, blank=True, related_name="scope")
    ruleset = models.ForeignKey("games.RuleSetVersion", on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="+", help_text="whose tie-breakers order the table")
    version = models.PositiveIntegerField(default=0)
    refreshed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("rating scope")
        verbose_name_plural = _("rating scopes")

    def __str__(self) -> str:
        return str(self.tournament or self.season)

    def games_q(self, prefix: str = "", *, since: tuple[dt.date, int] | None = None) -> models.Q:
        """The filter selecting this scope's games (or rows with the game's fields under `prefix`); with `since`
        = (date, game id), only the games at or after that one (`at_or_after`), the season's first day raised to
        that date so that the date index is searched from there."""
        if self.kind == self.Kind.TOURNAMENT:
            q = models.Q(**{f"{prefix}tournament_id": self.tournament_id})
        else:
            season = cast(Season, self.season)  # a scope of kind SEASON is made with its season
            start = season.start if since is None else max(season.start, since[0])
            q = models.Q(**{f"{prefix}club_id": season.club_id, f"{prefix}date__gte": start,
                            f"{prefix}date__lte": season.end})
        return q if since is None else q & at_or_after(*since, prefix=prefix)


def at_or_after(date, game_id: int, *, game_field: str = "game_id", prefix: str = "") -> models.Q:
    """Rows of the games at or after the game (date, id), in a club's order of games (date, then game id).

    Written as one range on the date (`date >= d AND NOT (date = d AND game < id)`), not as an OR, so that the
    (…, date, game) indexes serve it: with the OR, SQLite scanned the whole season for a change at its end.
    """
    return (models.Q(**{f"{prefix}date__gte": date})
            & ~models.Q(**{f"{prefix}date": date, f"{prefix}{game_field}__lt": game_id}))


def derived_key(to, **options) -> models.ForeignKey:
    """A key of a table the ratings rebuild from the protocols (PlayerGame, RatingPoint, EloChange): Django's
    cascade removes the rows with what they point to, and no database constraint is declared, whose check of
    every inserted row at commit was most of PostgreSQL's time in a history rewrite."""
    return models.ForeignKey(to, on_delete=models.CASCADE, db_constraint=False, **options)


class PlayerGame(models.Model):
    """One counted game of one player, with the facts the statistics need (a seat plus what the nights say)."""

    # No single-column index on the keys: each is the first column of a composite index or constraint below
    # (every index is written on every insert of a recompute).
    game = derived_key("games.Game", related_name="+", db_index=False)
    player = derived_key("club.Player", related_name="+", db_index=False)
    club = derived_key("club.Club", related_name="+", db_index=False)
    tournament = derived_key("games.Tournament", null=True, related_name="+", db_index=False)
    date = models.DateField()
    seat = models.PositiveSmallIntegerField()
    role = models.CharField(max_length=1, blank=True)
    # the facts (won, points, fouls, …) are the registry's: `contribute_facts` below (ratings.statistics.registry)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="player_game_once")]
        indexes = [
            models.Index(fields=["club", "date", "game"]),
            models.Index(fields=["tournament", "date", "game"]),
            # A player's games of a scope, newest first (the card): the key also holds what the card reads of
            # them, so that it reads no table row (an index-only scan on either database; bench/README.md).
            models.Index(fields=["player", "date", "game", "club", "tournament", "seat", "role", "won"],
                         name="playergame_player_cover"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.game_id}"


contribute_facts(PlayerGame)


class PlayerStats(models.Model):
    """A player's aggregate over a scope, with the rank and the tie-breaker that decided it (docs/rules.md D8)."""

    # indexed by the constraint (scope, player) and the index (player, scope) below
    scope = models.ForeignKey(RatingScope, on_delete=models.CASCADE, related_name="stats", db_index=False)
    player = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="+", db_index=False)
    rank = models.PositiveIntegerField()
    decided_by = models.CharField(max_length=30, blank=True)
    # the aggregates are the registry's: `contribute_statistics` below (ratings.statistics.registry)
    if TYPE_CHECKING:  # so the type checker knows the registry's columns exist, without declaring them again
        def __getattr__(self, name: str) -> Any: ...

    class Meta:
        ordering = ["scope_id", "rank", "id"]
        constraints = [models.UniqueConstraint(fields=["scope", "player"], name="player_stats_once_per_scope")]
        # No index on the rank: a change of one game re-ranks many rows of two scopes (a reversed result moved 175
        # of 300), and with no indexed column changed PostgreSQL updates them in place (HOT, migration 0017 leaves
        # room on every page) instead of adding an entry to every index for each. A scope's rows are read by the
        # (scope, player) constraint's index and sorted: a few hundred rows.
        indexes = [models.Index(fields=["player", "scope"])]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player_id} ({self.scope_id})"


contribute_statistics(PlayerStats)


class RatingPoint(models.Model):
    """The player's cumulative points and rank in a scope right after one game (the rating history chart)."""

    scope = derived_key(RatingScope, related_name="points", db_index=False)  # the first column of the indexes below
    player = derived_key("club.Player", related_name="+")
    game = derived_key("games.Game", related_name="+")
    date = models.DateField()
    seq = models.PositiveIntegerField()  # position of the game in the scope, from 0, ordered by (date, game id)
    n = models.PositiveIntegerField(default=0)  # the player's own game number in the scope, from 0 (the chart's x)
    points = models.DecimalField(**POINTS)
    cumulative = models.DecimalField(**POINTS)
    rank = models.PositiveIntegerField()  # 1 + players with a strictly larger cumulative total at that moment

    class Meta:
        ordering = ["scope_id", "seq"]
        # (scope, player, n): the chart's sampled games and their number (ratings.card.selectors); (scope, seq):
        # the history rewritten from a game on. No more: every index is paid by each rewritten point.
        indexes = [models.Index(fields=["scope", "player", "n"]), models.Index(fields=["scope", "seq"])]

    def __str__(self) -> str:
        return f"{self.player_id} #{self.seq}: {self.cumulative} ({self.rank})"


class EloChange(models.Model):
    """One player's Elo change in one counted game (docs/elo.md), in the site's order of games (date, game id);
    `club` is the game's club."""

    # indexed as the first column of the constraint (game, player) and the indexes (club, …), (player, …) below
    club = derived_key("club.Club", related_name="+", db_index=False)
    game = derived_key("games.Game", related_name="elo_changes", db_index=False)
    player = derived_key("club.Player", related_name="+", db_index=False)
    date = models.DateField()
    team = models.CharField(max_length=5)  # red / black
    score = models.FloatField()  # 1 won, 0 lost, 0.5 draw
    before = models.FloatField()
    delta = models.FloatField()
    after = models.FloatField()
    games = models.PositiveIntegerField()  # the player's counted games in the club up to and including this one

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="elo_change_once")]
        indexes = [models.Index(fields=["club", "date", "game"]), models.Index(fields=["player", "date", "game"])]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.game_id}: {self.delta:+.1f}"


class EloRating(models.Model):
    """A player's one current Elo (site-wide): the `after` of his last EloChange (a club's Elo table lists its
    members' rows)."""

    player = models.OneToOneField("club.Player", on_delete=models.CASCADE, related_name="elo")
    elo = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        indexes = [models.Index(fields=["-elo"])]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.elo:.0f}"


class PendingTail(models.Model):
    """A long recompute queued for the task worker: aggregates from (since_date, since_game) on are stale.

    `key` names what is recomputed ("elo:<club id>", "history:<scope id>"); while the row exists the pages say
    "пересчитывается". The task deletes it in the transaction that writes the new rows; a worker that dies rolls
    that transaction back, and the sweep (`club.task_queue`) or the next change queues a fresh task for it.
    """

    key = models.CharField(max_length=40, unique=True)
    since_date = models.DateField()
    since_game = models.BigIntegerField()
    queued_at = models.DateTimeField(auto_now=True)
    # the task (django-tasks' result id) that will do the work, and how often the sweep had to queue it again;
    # a marker whose task is finished, failed or lost with its worker is stale (`ratings.tasks.stale_reason`)
    task_id = models.CharField(max_length=64, blank=True, default="")
    attempts = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.key} from {self.since_date} #{self.since_game}"
