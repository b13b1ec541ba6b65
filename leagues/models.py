"""Leagues and series: a federation's season across its clubs' tournaments (docs/leagues.md).

League → Series → Tournament. A club belongs to a league when both sides agreed (`LeagueClub`, ACTIVE); a series
scores its tournaments through one version of a gaining table (`GainingVersion`, immutable: an edit makes a new
one); `SeriesResult` is the standings the task worker stored for the series' current `stamp`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


class League(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    # The rule sets its series may use: preset codes (games.RuleSetVersion.slug, e.g. "xcraft"); a club's copy counts
    # as the preset it is based on. Empty: every rule set.
    rulesets = models.JSONField(_("rule sets"), default=list, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class LeagueManager(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="managers", verbose_name=_("league"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="managed_leagues",
                             verbose_name=_("user"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("league manager")
        verbose_name_plural = _("league managers")
        constraints = [models.UniqueConstraint(fields=["league", "user"], name="league_manager_unique")]

    def __str__(self) -> str:
        return f"{self.league} · {self.user}"


class LeagueClub(models.Model):
    """A club's membership of a league: asked by the club (REQUESTED) or offered by the league (INVITED), ACTIVE once
    the other side accepts, ENDED when either side ends it (kept for the record)."""

    class Status(models.TextChoices):
        REQUESTED = "requested", _("asked by the club")
        INVITED = "invited", _("invited by the league")
        ACTIVE = "active", _("member")
        ENDED = "ended", _("ended")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("league"))
    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="league_memberships",
                             verbose_name=_("club"))
    status = models.CharField(_("status"), max_length=12, choices=Status.choices)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    changed = models.DateTimeField(_("changed"), auto_now=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("league club")
        verbose_name_plural = _("league clubs")
        constraints = [models.UniqueConstraint(fields=["league", "club"], name="league_club_unique")]

    def __str__(self) -> str:
        return f"{self.league} · {self.club}"


class GainingTable(models.Model):
    """A league's gaining table; its content lives in versions (the latest is the current one)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="tables", verbose_name=_("league"))
    name = models.CharField(_("name"), max_length=120)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("gaining table")
        verbose_name_plural = _("gaining tables")
        constraints = [models.UniqueConstraint(fields=["league", "name"], name="gaining_table_name_unique")]

    def __str__(self) -> str:
        return self.name


class GainingVersion(models.Model):
    """One version of a table, never edited (leagues.gaining's JSON in `data`)."""

    table = models.ForeignKey(GainingTable, on_delete=models.CASCADE, related_name="versions",
                              verbose_name=_("gaining table"))
    number = models.PositiveIntegerField(_("version"))
    data = models.JSONField(_("table"))
    created = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("created by"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("gaining table version")
        verbose_name_plural = _("gaining table versions")
        ordering = ["table", "-number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="gaining_version_unique")]

    def __str__(self) -> str:
        return f"{self.table} v{self.number}"


class Series(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="series", verbose_name=_("league"))
    name = models.CharField(_("name"), max_length=120)
    start = models.DateField(_("from"), null=True, blank=True)
    end = models.DateField(_("to"), null=True, blank=True)
    gaining = models.ForeignKey(GainingVersion, on_delete=models.PROTECT, related_name="series",
                                verbose_name=_("gaining table version"))
    best_of = models.PositiveSmallIntegerField(_("best tournaments counted"))
    # Bumped by every change the standings depend on (a tournament's scores, the series' own edits): the stored
    # standings (SeriesResult) and the page's cache are keyed by it.
    stamp = models.PositiveIntegerField(default=0, editable=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    history = HistoricalRecords(excluded_fields=["stamp"])

    class Meta:
        verbose_name = _("series")
        verbose_name_plural = _("series")
        ordering = ["-start", "name"]
        constraints = [models.UniqueConstraint(fields=["league", "name"], name="series_name_unique")]

    def __str__(self) -> str:
        return self.name


class SeriesTournament(models.Model):
    """A tournament in a series with its stars (1 to 5 in half steps). Added by a club's admin it waits for a league
    manager to confirm the stars, and gives no points until then."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="entries", verbose_name=_("series"))
    tournament = models.ForeignKey("games.Tournament", on_delete=models.CASCADE, related_name="series_entries",
                                   verbose_name=_("tournament"))
    stars = models.DecimalField(_("stars"), max_digits=2, decimal_places=1)
    finals = models.BooleanField(_("finals"), default=False)
    confirmed = models.BooleanField(_("stars confirmed"), default=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("series tournament")
        verbose_name_plural = _("series tournaments")
        constraints = [models.UniqueConstraint(fields=["series", "tournament"], name="series_tournament_unique")]

    def __str__(self) -> str:
        return f"{self.series} · {self.tournament}"


class SeriesResult(models.Model):
    """The standings the worker computed for the series at `stamp` (leagues.tasks); derived, rebuilt at will."""

    series = models.OneToOneField(Series, on_delete=models.CASCADE, related_name="result")
    stamp = models.PositiveIntegerField()
    data = models.JSONField()
    computed = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.series_id}@{self.stamp}"
