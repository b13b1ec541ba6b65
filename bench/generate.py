"""Write N random valid games as a mafclub/1 document.

    .venv/bin/python bench/generate.py 1000 --ruleset cml --seed 1 -o bench/out/games-1000.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.generate import generate_games  # noqa: E402
from games.rules.interchange import FORMAT, protocol_to_dict  # noqa: E402
from games.rules.ruleset import PRESETS, get_preset  # noqa: E402


def document(n: int, ruleset: str, seed: int, name: str) -> dict:
    return {
        "format": FORMAT,
        "tournament": {"name": name, "ruleset": ruleset},
        "games": [protocol_to_dict(p) for p in generate_games(n, get_preset(ruleset), seed=seed)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("n", type=int)
    parser.add_argument("--ruleset", choices=sorted(PRESETS), default="cml")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--name", default="Бенчмарк")
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args()
    text = json.dumps(document(args.n, args.ruleset, args.seed, args.name), ensure_ascii=False)
    if args.output == "-":
        sys.stdout.write(text + "\n")
    else:
        Path(args.output).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
