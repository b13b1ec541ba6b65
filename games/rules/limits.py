"""Scoring-related invariants (RULES.md §2.3 items 32–40): judge-extra limits, BM/judge exclusivity, penalties.

Filled in by the scoring work; `validate()` calls `check_scoring` last.
"""

from __future__ import annotations

from .problems import Problem
from .protocol import Protocol
from .ruleset import RuleSet


def check_scoring(protocol: Protocol, ruleset: RuleSet) -> list[Problem]:
    return []
