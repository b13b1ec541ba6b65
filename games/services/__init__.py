"""Writes of the games app, one module per concern; each service is keyword-only, runs in one transaction and raises
a `ServiceError` (club.services) with a user-facing message, leaving the database unchanged.

* `imports`: importing protocols (the mafclub/1 format) and writing a protocol's rows;
* `scoring`: the stored scores of games, recomputed by the pure engine;
* `rulesets`: a club's rule sets;
* `work`: creating tournaments, club evenings and games.

The public services are importable from `games.services` itself.
"""

from games.services.imports import (
    DEFAULT_CLUB_NAME,
    ImportFailed,
    ImportReport,
    import_documents,
    resolve_club,
    write_protocol,
)
from games.services.rulesets import ruleset_copy, ruleset_set_default, ruleset_update
from games.services.scoring import lock_scoring_scope, score_games, scoring_scope, seated
from games.services.work import evening_create, game_start_new, tournament_create

__all__ = [
    "DEFAULT_CLUB_NAME", "ImportFailed", "ImportReport", "evening_create", "game_start_new", "import_documents",
    "lock_scoring_scope", "resolve_club", "ruleset_copy", "ruleset_set_default", "ruleset_update", "score_games",
    "scoring_scope", "seated", "tournament_create", "write_protocol",
]
