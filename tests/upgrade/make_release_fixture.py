"""Make a release's upgrade fixture: run in a checkout of the release, it builds an SQLite database with the
release's code (migrate, `seed_demo`, a generated tournament of 40 games imported through `import_protocols`),
writes every row at the release's migration leaves plus what the release shows (`tests/upgrade/release.py`) to
OUT, and prints the leaves to record in `tests/upgrade/releases.py`.

    git archive <release commit> | tar -x -C /tmp/release
    .venv/bin/python tests/upgrade/make_release_fixture.py --checkout /tmp/release --release 2026.12 \\
        tests/upgrade/release-2026.12.json.gz
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

# What a club's audit trail holds besides the imports: a judge's taps on the game in play (one undone) and a protest
# decided by the head judge, through the release's own services.
STORY = """
import datetime as dt
from django.contrib.auth import get_user_model
from games.live.apply import live_apply
from games.models import Game, Protest
from games.protests.services import protest_decide

users = get_user_model().objects
judge, head = users.get(username="judge1"), users.get(username="headjudge")
live = Game.objects.get(status=Game.Status.IN_PROGRESS)
for n, (kind, payload) in enumerate([("foul", {"seat": 2, "delta": 1}), ("foul", {"seat": 5, "delta": 1}),
                                     ("undo", {}), ("foul", {"seat": 7, "delta": 1})]):
    live.refresh_from_db()
    live_apply(game_id=live.pk, by=judge, kind=kind, payload=payload, version=live.version, action_id=f"story-{n}")
game = Game.objects.filter(tournament__name="Кубок релиза", status=Game.Status.FINISHED).order_by("number")[3]
seat = game.seats.get(number=4)
protest = Protest.objects.create(game=game, seat=4, player=seat.player, category=Protest.Category.RESULT,
                                 text="протест по игре", filed_at=game.ended_at + dt.timedelta(minutes=2))
protest_decide(protest=protest, by=head, decision="reject", explanation="решение главного судьи",
               now=game.ended_at + dt.timedelta(minutes=5))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--checkout", type=Path, default=Path.cwd(), help="the release's source tree")
    parser.add_argument("--release", required=True)
    args = parser.parse_args()
    out = args.out.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CACHE_URL")},
               "DATABASE_URL": f"sqlite:///{tmp}/release.sqlite3", "TASKS_BACKEND": "immediate",
               "DJANGO_SETTINGS_MODULE": "club.settings"}

        def manage(*cmd: str) -> str:
            return subprocess.run([sys.executable, "manage.py", *cmd], cwd=args.checkout, env=env, check=True,
                                  stdout=subprocess.PIPE, text=True, timeout=600).stdout

        manage("compilemessages", "--ignore=.venv", "-v", "0")
        manage("migrate", "-v", "0")
        manage("seed_demo")
        games = Path(tmp) / "games.json"
        subprocess.run([sys.executable, "bench/generate.py", "40", "--seed", "11", "--name", "Кубок релиза", "-o",
                        str(games)], cwd=args.checkout, check=True, timeout=120)
        club = manage("shell", "-c", "from club.models import Club; print(Club.objects.order_by('pk')[0].name)")
        manage("import_protocols", str(games), "--club", club.strip().splitlines()[-1])
        manage("shell", "-c", STORY)
        manage("shell", "-c", f"import runpy; runpy.run_path({str(HERE / 'release.py')!r})['dump']"
                              f"({str(out)!r}, {args.release!r})")
    fixture = json.loads(__import__("gzip").decompress(out.read_bytes()))
    print(f"{out}: {out.stat().st_size} bytes; leaves of {args.release}:")
    print(json.dumps(fixture["leaves"]))


if __name__ == "__main__":
    main()
