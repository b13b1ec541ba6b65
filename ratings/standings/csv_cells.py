"""CSV cells a spreadsheet program cannot run: text starting with = + - @ (or a tab / carriage return) is
written with a leading apostrophe, so it is read as text and never as a formula (CSV formula injection). Numbers
(-0.5, +1) stay numbers."""

from __future__ import annotations

import re
from decimal import Decimal

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")


def safe_cell(value):
    if value is None or isinstance(value, (int, float, Decimal)):
        return value
    text = str(value)
    if text.startswith(FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def safe_row(row):
    return [safe_cell(value) for value in row]
