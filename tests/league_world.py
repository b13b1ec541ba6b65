"""A league holding a club and a series with one of its tournaments: the object every page walk (the GET walk,
the site crawl, the hostile-URL walk) fills the leagues' addresses with."""

from __future__ import annotations

from django.apps import apps


def league_world(club, tournament) -> dict[str, int]:
    """A league with `club`, a gaining table and a series holding `tournament`; the pks by object."""
    league = apps.get_model("leagues", "League").objects.create(name="Лига")
    membership = apps.get_model("leagues", "LeagueClub").objects.create(league=league, club=club, status="active")
    table = apps.get_model("leagues", "GainingTable").objects.create(league=league, name="Таблица")
    version = apps.get_model("leagues", "GainingVersion").objects.create(table=table, number=1, data={
        "name": "Таблица", "best_of": 2, "stars": {str(k): [10 * k, 5 * k, k] for k in range(1, 6)},
        "field": [[10, 0.5], [40, 1.0]]})
    series = apps.get_model("leagues", "Series").objects.create(league=league, name="Серия", gaining=version, best_of=2)
    entry = apps.get_model("leagues", "SeriesTournament").objects.create(series=series, tournament=tournament,
                                                                         stars="2.5", confirmed=True)
    return {"league": league.pk, "table": table.pk, "version": version.pk, "series": series.pk, "entry": entry.pk,
            "membership": membership.pk}


def league_pks(world: dict[str, int]) -> dict[str, list[int]]:
    """The pk each leagues' address (and the series' overlay) is walked with, by URL name."""
    by_object = {
        "league": ("league_detail", "league_elo", "membership", "table_new", "series_new"),
        "membership": ("membership_change",), "table": ("table_edit",), "version": ("table_export",),
        "entry": ("entry_change",), "series": ("series_detail", "series_csv", "series_add", "series_move"),
    }
    pks = {f"leagues:{name}": [world[kind]] for kind, names in by_object.items() for name in names}
    pks["broadcast:series"] = [world["series"]]
    return pks
