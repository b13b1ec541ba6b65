"""The live room's read model as other apps and rooms read it (the API, the broadcast overlays, template tags).

The judge's screen (`judge_screen`), the spectator's days (`spectator_days`: no role, no check and nothing derived
from roles before the game ends), a day's speaking order (`day_speech`) and the clause a refusal opens with
(`split_clause`). They are built in `games.live.screen`, `games.live.state` and `games.live.problems`; nothing
outside `games.live` imports those modules directly (the import contracts, pyproject.toml).
"""

from games.live.problems import split_clause
from games.live.screen import JudgeScreen, SpectatorDay, judge_screen, spectator_days
from games.live.state import day_speech

__all__ = ["JudgeScreen", "SpectatorDay", "day_speech", "judge_screen", "spectator_days", "split_clause"]
