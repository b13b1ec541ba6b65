"""Live protocol entry: the judge's clicks as small, safe writes.

* `apply`: the apply step (lock, version check, idempotency key, permission) and the registry of handlers;
* `actions`: the handler table's entry (handler, typed payload, when it is allowed), the reading of the payload's
  fields and the answer (HTTP status) each refusal gets;
* `base`: the refusals, the action context (the protocol read once per tap and passed on to the screen);
* handlers by phase: `setup` (before the game), `day`, `night`, `penalties` (fouls, removals), `end` (result,
  extras, adjustments, sign-off);
* `undo`: the snapshot each action takes and its restoration;
* `state`: the game's state as the screens and handlers see it (alive, vote, speaking order, end);
* `screen`: the read model of the judge's and the spectator's screens.
"""
