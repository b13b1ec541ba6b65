"""Tournament seating: who sits at which table, in which seat, in every round (pure Python, no Django).

`solve(SeatingRequest(...))` returns a `Schedule`; `evaluate(...)` measures one. The `manage.py seating` command
and the tournament pages call the same code.
"""

from games.seating.bounds import Bound, bound
from games.seating.measure import Stats, evaluate
from games.seating.solver import (
    TABLE_SIZE,
    Lock,
    Schedule,
    SeatingImpossible,
    SeatingRequest,
    assign_seats,
    random_schedule,
    solve,
)

__all__ = [
    "TABLE_SIZE",
    "Bound",
    "Lock",
    "Schedule",
    "SeatingImpossible",
    "SeatingRequest",
    "Stats",
    "assign_seats",
    "bound",
    "evaluate",
    "random_schedule",
    "solve",
]
