"""Messages of the history readers: English text (the command line's, and the value of the string) that also
knows its template and parameters, so a page shows it in the reader's language (`shown(line, gettext)`). Pure
Python: the readers stay free of Django. Templates are marked with `N_` for makemessages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def N_(template: str) -> str:
    return template


class Msg(str):
    """A message: `str(msg)` is the English text; `msg.shown(gettext)` the same in the active language."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, **params: Any) -> Msg:
        obj = super().__new__(cls, template % params if params else template)
        obj.template, obj.params = template, params
        return obj

    def shown(self, gettext: Callable[[str], str]) -> str:
        text = gettext(self.template)
        return text % self.params if self.params else text


class Located(str):
    """"WHERE: message": the place (a file, sheet, row and column, or a path into the file) stays as it is."""

    prefix: str
    msg: str

    def __new__(cls, prefix: str, msg: str) -> Located:
        obj = super().__new__(cls, f"{prefix}: {msg}")
        obj.prefix, obj.msg = prefix, msg
        return obj

    def shown(self, gettext: Callable[[str], str]) -> str:
        return f"{self.prefix}: {shown(self.msg, gettext)}"


def shown(line: str, gettext: Callable[[str], str]) -> str:
    return line.shown(gettext) if isinstance(line, (Msg, Located)) else str(line)
