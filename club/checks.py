"""The site's own system checks.

`covering_indexes`: on a database without INCLUDE (SQLite) Django's models.W040 is silenced (club/settings.py), since
club.indexes.CoveringIndex keeps its INCLUDE columns in the key there; an index with INCLUDE that is not a
CoveringIndex would lose them, and this check says so in W040's place.
"""

from __future__ import annotations

from django.apps import apps
from django.core import checks
from django.db import connections

from club.indexes import CoveringIndex


@checks.register(checks.Tags.models, checks.Tags.database)
def covering_indexes(app_configs=None, databases=None, **kwargs) -> list[checks.CheckMessage]:
    configs = app_configs or apps.get_app_configs()
    return dropped_include([model for config in configs for model in config.get_models()], databases or ())


def dropped_include(models, databases) -> list[checks.CheckMessage]:
    """A warning for each index with INCLUDE columns, other than a CoveringIndex, on each database without INCLUDE."""
    without_include = [alias for alias in databases if not connections[alias].features.supports_covering_indexes]
    return [
        checks.Warning(
            f"Index {index.name!r} has INCLUDE columns, which the database {alias!r} drops; use "
            "club.indexes.CoveringIndex, which keeps them at the end of the key there.",
            obj=model, id="club.W040")
        for model in models for index in model._meta.indexes
        if index.include and not isinstance(index, CoveringIndex) for alias in without_include
    ]
