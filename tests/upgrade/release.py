"""A release's data as its own schema stored it, and what a club reads of it — for the upgrade test.

`dump(leaves)` writes every row of every table at the release's migration leaves (read through the historical
models of that migration state, so it needs no model code of the release), the release's own mafclub/1 exports
of its tournaments, and what the release showed (`snapshot()`). `load(fixture)` writes those rows into an empty
database migrated to the same leaves; `migrate_to(leaves)` moves a database to a set of leaves. Both run inside
`manage.py shell` (`tests/upgrade/make_release_fixture.py` runs `dump` in a checkout of the release).

No Django import at module level beyond what every release has: this file is run by an older release's code too.
"""

from __future__ import annotations

import gzip
import json
from io import StringIO
from pathlib import Path

SKIPPED = {"sessions.session"}  # logins' sessions are not data a club keeps
VOLATILE = ("DateTimeField",)  # when a row was written differs between a release's run and a fresh one


def migrate_to(leaves: list[list[str]]) -> None:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([tuple(leaf) for leaf in leaves])


def current_leaves() -> list[list[str]]:
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    return sorted([list(node) for node in MigrationLoader(connection, ignore_no_migrations=True).graph.leaf_nodes()])


def _models(leaves: list[list[str]]):
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    apps = MigrationLoader(connection).project_state([tuple(leaf) for leaf in leaves]).apps
    for model in sorted(apps.get_models(include_auto_created=True), key=lambda m: m._meta.label_lower):
        if model._meta.managed and not model._meta.proxy and model._meta.label_lower not in SKIPPED:
            yield model


def _columns(model) -> list:
    return list(model._meta.concrete_fields)


def tables(leaves: list[list[str]]) -> dict:
    """{model label: {"fields": [attname …], "rows": [[value …] …]}} of every table with rows, by primary key."""
    from django.core.serializers.json import DjangoJSONEncoder

    out = {}
    for model in _models(leaves):
        fields = [f.attname for f in _columns(model)]
        rows = [list(r) for r in model._base_manager.order_by("pk").values_list(*fields)]
        if rows:
            out[model._meta.label_lower] = {"fields": fields,
                                            "rows": json.loads(json.dumps(rows, cls=DjangoJSONEncoder))}
    return out


def load(fixture: dict) -> int:
    """Write the fixture's rows into the database (migrated to the fixture's leaves, holding no data yet)."""
    from django.core.management.color import no_style
    from django.db import connection, transaction

    models = {m._meta.label_lower: m for m in _models(fixture["leaves"])}
    written = 0
    with transaction.atomic():  # foreign keys are checked at the commit (Django creates them deferred)
        for label in fixture["tables"]:  # what the migrations seeded (the rule-set presets) is in the rows
            models[label]._base_manager.all()._raw_delete(connection.alias)
        for label, table in fixture["tables"].items():
            model = models[label]
            fields = {f.attname: f for f in _columns(model)}
            objs = [model(**{name: fields[name].to_python(value)
                               for name, value in zip(table["fields"], row, strict=True)}) for row in table["rows"]]
            model._base_manager.bulk_create(objs, batch_size=500)
            written += len(objs)
        sql = connection.ops.sequence_reset_sql(no_style(), list(models.values()))
        with connection.cursor() as cursor:
            for statement in sql:
                cursor.execute(statement)
    return written


def _run(*args) -> str:
    from django.core.management import call_command

    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def exports() -> dict:
    """Each tournament's protocols as the code running exports them (mafclub/1)."""
    from games.models import Tournament

    return {name: json.loads(_run("export_protocols", "--tournament", name))
            for name in sorted(Tournament.objects.values_list("name", flat=True))}


def audit(leaves: list[list[str]]) -> dict:
    """The audit trail (the judges' action log, every history table) as rows, without the write times."""
    from django.core.serializers.json import DjangoJSONEncoder

    out = {}
    for model in _models(leaves):
        label = model._meta.label_lower
        if not (label == "games.gameaction" or model.__name__.startswith("Historical")):
            continue
        fields = [f.attname for f in _columns(model) if type(f).__name__ not in VOLATILE]
        rows = [list(r) for r in model._base_manager.order_by("pk").values_list(*fields)]
        out[label] = json.loads(json.dumps({"fields": fields, "rows": rows}, cls=DjangoJSONEncoder))
    return out


def snapshot(leaves: list[list[str]]) -> dict:
    """What a club reads: standings of every tournament, the Elo table, the protocols, the audit trail."""
    from club.models import Club
    from games.models import Tournament

    names = sorted(Tournament.objects.values_list("name", flat=True))
    return {
        "standings": {n: json.loads(_run("standings", "--tournament", n, "--format", "json")) for n in names},
        "elo": {c: json.loads(_run("elo", "--club", c, "--format", "json"))
                for c in sorted(Club.objects.values_list("name", flat=True))},
        "protocols": exports(),
        "audit": audit(leaves),
    }


def dump(path: str, release: str) -> None:
    """Write the release's fixture (gzip JSON): leaves, rows, what the release showed."""
    leaves = current_leaves()
    fixture = {"release": release, "leaves": leaves, "tables": tables(leaves), "snapshot": snapshot(leaves)}
    Path(path).write_bytes(gzip.compress(json.dumps(fixture, ensure_ascii=False, sort_keys=True).encode(), 9,
                                         mtime=0))


def read(path: str | Path) -> dict:
    return json.loads(gzip.decompress(Path(path).read_bytes()))
