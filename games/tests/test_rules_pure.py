"""The rules core stays pure Python: nothing under games/rules imports Django (STYLE.md, "Rules live in one pure
core"). The source is scanned with `ast`, so a lazy import inside a function is caught too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[1] / "rules"
MODULES = sorted(RULES.rglob("*.py"))


def _imported_names(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in {
            "import_module", "__import__"
        }:
            names += [arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
    return names


def test_the_rules_package_has_modules():
    assert {"validate.py", "generate.py", "protocol.py", "ruleset.py"} <= {p.name for p in MODULES}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(RULES)))
def test_no_django_import(path):
    offenders = [name for name in _imported_names(path) if name == "django" or name.startswith("django.")]
    assert offenders == [], f"{path.name} imports {offenders}"


def test_the_scanner_sees_django_imports(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom django.db import models\ndef f():\n    import django.conf\n")
    assert [n for n in _imported_names(sample) if n.startswith("django")] == ["django.db", "django.conf"]
