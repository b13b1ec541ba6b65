"""Translatable engine messages without Django: the English text plus the template and parameters it came from.

`N_("…")` only marks a template for `makemessages` (the `--keyword=N_` of games/management/commands/makemessages.py);
it returns the text unchanged, like gettext_noop. `Text(template, **params)` is a `str` holding the English result
of `template % params`, so it compares, prints and serializes exactly like the English string it replaces, and it
keeps `template` and `params` so the site (games/i18n.py) can render it again in the reader's language. A parameter
may itself be a `Text` (a clause with its reason, "nobody", "red"): it is translated too.
"""

from __future__ import annotations

from typing import Any


def N_(text: str) -> str:
    """Mark `text` as a message template to translate; returns it unchanged (gettext_noop)."""
    return text


class Text(str):
    """English text that remembers its template, parameters and (for a bare word) its gettext context."""

    template: str
    params: dict[str, Any]
    context: str = ""

    def __new__(cls, template: str, /, **params: Any) -> Text:
        obj = super().__new__(cls, template % params if params else template)
        obj.template = template
        obj.params = params
        return obj

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any], str]]:  # copy/deepcopy/pickle keep the template
        return _rebuild, (self.template, self.params, self.context)


def _rebuild(template: str, params: dict[str, Any], context: str = "") -> Text:
    text = Text(template, **params)
    text.context = context
    return text


def NC_(context: str, text: str) -> Text:
    """A small word used as a parameter ("red" as a result, as a team), translated in `context` (pgettext_noop)."""
    return _rebuild(text, {}, context)


def ordinal(number: int) -> Text:
    """"4th" ("4-й" in Russian): a count the rule set gives (the foul that removes, `foul_limit`) in words."""
    if number % 100 in (11, 12, 13) or number % 10 not in (1, 2, 3):
        return Text(N_("%(n)sth"), n=str(number))
    if number % 10 == 1:
        return Text(N_("%(n)sst"), n=str(number))
    if number % 10 == 2:
        return Text(N_("%(n)snd"), n=str(number))
    return Text(N_("%(n)srd"), n=str(number))
