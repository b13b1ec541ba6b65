"""An index that keeps its INCLUDE columns on SQLite too."""

from __future__ import annotations

from django.db import models


class CoveringIndex(models.Index):
    """An index that holds its `include` columns on either database: PostgreSQL's INCLUDE, and on SQLite, which has
    no INCLUDE (Django leaves those columns out), at the end of the key. A read of rows found by the key that needs
    only these columns then reads no table row (an index-only scan; SQLite's "covering index")."""

    def create_sql(self, model, schema_editor, using="", **kwargs):
        if self.include and not schema_editor.connection.features.supports_covering_indexes:
            keyed = self.clone()
            keyed.fields_orders = [*self.fields_orders, *((name, "") for name in self.include)]
            keyed.include = ()
            return keyed.create_sql(model, schema_editor, using=using, **kwargs)
        return super().create_sql(model, schema_editor, using=using, **kwargs)
