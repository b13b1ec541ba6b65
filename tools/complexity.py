"""Fail when a function of the site's code is more complex than the house limit (radon's cyclomatic complexity,
which counts boolean operators too, so it is stricter than ruff's C901 at the same number).

    python tools/complexity.py [--max 25] [paths…]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from radon.complexity import cc_visit

ROOTS = ["club", "games", "ratings", "api", "broadcast", "notify", "bench", "tools", "leagues"]
SKIP_PARTS = {"migrations", ".venv", "tests"}  # tests are held to ruff's C901 (pyproject.toml)


def offenders(paths: list[Path], limit: int) -> list[tuple[str, int, str, int]]:
    found: set[tuple[str, int, str, int]] = set()
    for root in paths:
        files = [root] if root.is_file() else sorted(root.rglob("*.py"))
        for file in files:
            if SKIP_PARTS & set(file.parts):
                continue
            for block in cc_visit(file.read_text(encoding="utf-8")):
                items = [block, *getattr(block, "methods", [])]
                for item in items:
                    if item.complexity > limit:
                        found.add((str(file), item.lineno, item.name, item.complexity))
    return sorted(found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max", type=int, default=25)
    parser.add_argument("paths", nargs="*", default=ROOTS)
    args = parser.parse_args()
    paths = [Path(p) for p in args.paths if Path(p).exists()]
    found = offenders(paths, args.max)
    for file, line, name, complexity in found:
        print(f"{file}:{line}: {name} has complexity {complexity} (limit {args.max})")
    if found:
        return 1
    print(f"complexity: no function above {args.max} in {', '.join(map(str, paths))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
