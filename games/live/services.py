"""What a tap writes: the live room's public write entry points, the ones other apps and rooms call.

Every judge's tap is one `live_apply(*, game_id, by, kind, payload, version, action_id)` (the apply step,
`games.live.apply`); `ACTIONS` is the table of the kinds it accepts, and a refused tap raises one of the refusals
below (`games.live.base`), each carrying the message the judge reads. Nothing outside `games.live` imports the
apply step, the handlers or the refusals from their own modules: the import contracts (pyproject.toml) hold it.
"""

from games.live.apply import ACTIONS, live_apply
from games.live.base import ActionRefused, ActionResult, AlreadyDone, Busy, ReadOnly, StaleVersion

__all__ = ["ACTIONS", "ActionRefused", "ActionResult", "AlreadyDone", "Busy", "ReadOnly", "StaleVersion", "live_apply"]
