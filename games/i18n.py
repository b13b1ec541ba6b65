"""The rules engine's English messages in the reader's language.

games/rules may not import Django, so its messages are English `Text`s / `Problem`s that keep the template (marked
with `N_`, extracted by our `makemessages`) and its parameters. Here they are rendered again with gettext. Anything
without a template — a judge's own note, text stored before templates existed — is shown as it is.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from django.utils.dateformat import format as date_format
from django.utils.dateparse import parse_datetime
from django.utils.formats import get_format
from django.utils.timezone import get_default_timezone, is_naive, localtime, make_aware
from django.utils.translation import gettext, pgettext

from club.templatetags.points import points
from games.rules.i18n import Text
from games.rules.problems import Problem
from games.rules.scoring import NOTE_TEMPLATES


def render(template: str, params: dict[str, Any], english: str) -> str:
    """`gettext(template) % params`, parameters translated too; the English text when the translation breaks."""
    if not template:
        return english
    values = {key: localize(value) for key, value in params.items()}
    try:
        return gettext(template) % values if values else gettext(template)
    except (KeyError, TypeError, ValueError):
        try:
            return template % values if values else template
        except (KeyError, TypeError, ValueError):
            return english


_PHASE_CODE = re.compile(r"^([DN])(\d+)$")


def phase_code(code: str) -> str:
    """The engine's phase code in the reader's letters: D2 → «Д2» (day), N1 → «Н1» (night) in Russian."""
    match = _PHASE_CODE.match(code)
    if not match:
        return code
    letter = pgettext("day in a phase code", "D") if match.group(1) == "D" else pgettext("night in a phase code", "N")
    return f"{letter}{match.group(2)}"


_NUMBER = re.compile(r"[−-]?\d+\.\d+")
_NUMBER_LIST = re.compile(r"[−-]?\d+(?:\.\d+)?(?:, [−-]?\d+(?:\.\d+)?)+")


def number_text(value: str) -> str:
    """The engine's numbers ("0.3", a list "0.2, 0.3") with the reader's one decimal separator: "0,3" and
    "0,2; 0,3" in Russian (a comma inside a list of decimals would be ambiguous), unchanged in English."""
    sep = get_format("DECIMAL_SEPARATOR")
    if sep == "." or "." not in value:
        return value
    if _NUMBER.fullmatch(value):
        return value.replace(".", sep)
    if _NUMBER_LIST.fullmatch(value):
        return "; ".join(part.replace(".", sep) for part in value.split(", "))
    return value


def localize(value: Any) -> Any:
    """A `Text` in the active language; a phase code ("D2") in the reader's letters; a number in the reader's
    decimal separator; any other value unchanged."""
    if isinstance(value, str) and _PHASE_CODE.match(value):
        return phase_code(value)
    if isinstance(value, str) and not isinstance(value, Text):
        return number_text(value)
    if isinstance(value, Text):
        if value.context and not value.params:
            return pgettext(value.context, value.template)
        return render(value.template, value.params, str(value))
    return value


def problem_text(problem: Problem) -> str:
    """The problem's message in the active language (`problem.message` stays the English one)."""
    return render(problem.template, problem.params, problem.message)


def problem_line(label: str, game: str, problem: Problem) -> str:
    """The importer's "FILE: game N: field: message" line with the message in the active language; the location
    "FILE: game N: field" points into the mafclub/1 file (its keys are English) and stays as it is."""
    return f"{label}: game {game}: {problem.field}: {problem_text(problem)}"


@cache
def _note_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    patterns = []
    for template in NOTE_TEMPLATES:
        seen: set[str] = set()
        regex = ""
        for part in re.split(r"(%\([a-z_]+\)s)", template):
            name = part[2:-2] if part.startswith("%(") else None
            if name is None:
                regex += re.escape(part)
            elif name in seen:
                regex += f"(?P={name})"
            else:
                seen.add(name)
                regex += f"(?P<{name}>.+?)"
        patterns.append((re.compile(regex), template))
    return tuple(patterns)


def note_text(note: str) -> str:
    """A score item's note in the active language: an engine note (stored in English) is matched back to its
    template and translated; a judge's own note is shown as written."""
    if isinstance(note, Text):
        return localize(note)
    decided = protest_item_text(note)
    if decided is not None:
        return decided
    for pattern, template in _note_patterns():
        match = pattern.fullmatch(note or "")
        if match:
            return render(template, match.groupdict(), note)
    return stored_reason_text(note)


_PROTEST_REF = re.compile(r"^protest #(\d+)(?:: (.*))?$", re.S)
_CANCELLED_ITEM = re.compile(r"^cancels (\S+) (\S+)(?: \((.*)\))?$", re.S)


def _cancelled_item(kind: str) -> str:
    """What a protest decision cancelled, by the computed item's kind (games.protests.services._remove_penalty)."""
    return {
        "removal_penalty": gettext("removal penalty cancelled"),
        "ppk": gettext("team defeat (PPK) penalty cancelled"),
        "wrong_colour": gettext("colour-on-record penalty cancelled"),
    }.get(kind, gettext("penalty cancelled"))


def protest_item_text(note: str) -> str | None:
    """The note of an item a head judge's decision entered («protest #1: cancels removal_penalty -0.5 (…)», «protest
    #2: <his words>») said in words: «Protest No. 1 upheld: removal penalty cancelled (−0.5)»; None for any other
    note. Such items exist only when a protest is upheld (games.protests.services)."""
    match = _PROTEST_REF.match(note or "")
    if not match:
        return None
    head = gettext("Protest No. %(n)s upheld") % {"n": match.group(1)}
    rest = match.group(2) or ""
    cancelled = _CANCELLED_ITEM.match(rest)
    if cancelled:
        amount = points(cancelled.group(2)).replace("-", "−")
        return gettext("%(head)s: %(what)s (%(points)s)") % {
            "head": head, "what": _cancelled_item(cancelled.group(1)), "points": amount}
    return f"{head}: {rest}" if rest else head
_RESULT_CHANGE = re.compile(r"^result (\S+) → (\S+)$")
_SCHEDULE_SWAP = re.compile(r"^schedule: participants (\d+) and (\d+) exchanged seats$")
_SCHEDULE_WITHDRAW = re.compile(r"^schedule: participant (\d+) withdrawn after round (\d+)$")
_SCHEDULE_MOVE = re.compile(r"^schedule: game (\d+) moved to round (\d+)$")


def stored_reason_text(text: str) -> str:
    """The English reasons the protest service stores with a change («protest #2: result red → black», «decision:
    uphold») in the reader's language; a judge's own words are shown as written."""
    if not text:
        return text
    match = _PROTEST_REF.match(text)
    if match:
        head = gettext("protest No. %(n)s") % {"n": match.group(1)}
        return f"{head}: {stored_reason_text(match.group(2))}" if match.group(2) else head
    match = _RESULT_CHANGE.match(text)
    if match:
        return f"{gettext('result')}: {result_label(match.group(1).strip('-'))} → {result_label(match.group(2))}"
    if text.startswith("decision: "):
        decision = text.removeprefix("decision: ")
        labels = {"uphold": gettext("upheld"), "reject": gettext("rejected")}
        return f"{gettext('decision')}: {labels.get(decision, decision)}"
    match = _SCHEDULE_SWAP.match(text)
    if match:
        return gettext("seating: participants No. %(a)s and No. %(b)s exchanged seats (the organiser)") % {
            "a": match.group(1), "b": match.group(2)}
    match = _SCHEDULE_WITHDRAW.match(text)
    if match:
        return gettext("seating: participant No. %(n)s withdrawn after round %(round)s, the seat emptied (the "
                       "organiser)") % {"n": match.group(1), "round": match.group(2)}
    match = _SCHEDULE_MOVE.match(text)
    if match:
        return gettext("seating: game %(n)s moved to round %(round)s (the organiser)") % {
            "n": match.group(1), "round": match.group(2)}
    if text.startswith("replay ordered by protest #"):
        return gettext("replay ordered by protest No. %(n)s") % {"n": text.rsplit("#", 1)[1]}
    fixed = {
        "replay ordered": gettext("replay ordered"),
        "annulled by the team vote (003 l.127)": gettext("annulled by the team vote"),
        "protocol corrected": gettext("protocol corrected"),
        "schedule: seating drawn again": gettext("seating drawn again (the organiser)"),
        "paper protest recorded by the table judge": gettext("paper protest recorded by the table judge"),
    }
    return fixed.get(text, text)



def _payload_labels() -> dict[str, str]:
    return {
        "seat": gettext("seat"), "by": gettext("nominated by"), "nominee": gettext("nominee"),
        "player_id": "", "nickname": gettext("player"), "role": gettext("role"), "delta": gettext("fouls"),
        "result": gettext("result"), "points": gettext("points"), "note": gettext("note"), "day": gettext("day"),
        "night": gettext("night"), "reason": gettext("reason"), "seats": gettext("seats"), "colour": gettext("colour"),
        "id": gettext("No."), "undid": gettext("undid action No."), "clause": "", "create": "",
        "was": gettext("was"),
    }


_ISO_MOMENT = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d")


def _moment_in_words(value: str) -> str:
    """A stored ISO moment as a reader says it, in the club's time zone: «5 декабря 2026, 04:23»."""
    moment = parse_datetime(value)
    if moment is None:
        return value
    if is_naive(moment):
        moment = make_aware(moment, get_default_timezone())
    return date_format(localtime(moment, get_default_timezone()), "j E Y, H:i")


def _payload_value(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if key == "result":
        return result_label(str(value))
    if key in ("role", "was"):
        return role_letter(str(value))
    if key == "delta":
        return f"+{value}" if str(value).lstrip("+").isdigit() and not str(value).startswith("-") else str(value)
    if key == "points":
        try:
            return points(value)
        except (TypeError, ValueError, ArithmeticError):
            return str(value)
    if isinstance(value, str) and _ISO_MOMENT.match(value):
        return _moment_in_words(value)
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {v}" for k, v in value.items())
    return str(value)


def action_details(payload: Any) -> str:
    """A judge action's payload as a reader says it: «место 3, фолы +1», «за 5: 7» — never `{'seat': '3', …}`."""
    if not isinstance(payload, dict):
        return "" if payload in (None, "") else str(payload)
    labels = _payload_labels()
    parts = []
    for key, value in payload.items():
        if value in (None, "", [], {}) or key in ("action_id", "version", "player_id", "create", "clause",
                                                  "from", "round", "seq",  # what a tap named (games.live.targets)
                                                  "ended_at"):  # the trail has its own time
            continue
        if key.startswith("v") and key[1:].isdigit():  # votes: "v5": 7 → «за 5: 7»
            parts.append(gettext("for %(seat)s: %(votes)s") % {"seat": key[1:], "votes": value})
            continue
        label = "" if key == "result" else labels.get(key, "")  # «Победа красных» says it; the kind says «result»
        text = _payload_value(key, value)
        parts.append(f"{label} {text}".strip() if label else text)
    return ", ".join(parts)


def role_letter(code: str) -> str:
    """A stored role letter (К, Ч, Ш, Д) in the reader's letter set: К/Ч/Ш/Д in Russian, C/M/S/D in English (the
    legend, templates/games/_role_legend.html, says which is which). The msgids are the English letters, so a
    language without a catalogue falls back to English, not to the stored Russian codes."""
    letters = {"К": pgettext("role letter", "C"), "Ч": pgettext("role letter", "M"),
               "Ш": pgettext("role letter", "S"), "Д": pgettext("role letter", "D")}
    return letters.get(code or "", code or "")


def result_label(code: str) -> str:
    """A stored result code ("red", "black", "draw") in the reader's language."""
    labels = {"red": gettext("Red win"), "black": gettext("Black win"), "draw": gettext("Draw"), "": "—"}
    return labels.get(code, code)


def action_label(kind: str) -> str:
    labels = {
        "seat": gettext("seat"), "seat_clear": gettext("seat cleared"), "seats_draw": gettext("seat draw"), "role": gettext("role"),
        "start": gettext("start"), "speech": gettext("speech"), "nominate": gettext("nomination"), "withdraw": gettext("withdrawal"),
        "votes": gettext("vote"), "lift": gettext("lift vote"), "night": gettext("night"), "kill": gettext("kill"),
        "don_check": gettext("Don's check"), "sheriff_check": gettext("Sheriff's check"), "day": gettext("day"),
        "best_move": gettext("best move"), "colour": gettext("colour on record"), "foul": gettext("foul"), "remove": gettext("removal"),
        "result": gettext("result"), "extra": gettext("judge extra"), "adjustment": gettext("adjustment"),
        "adjustment_delete": gettext("adjustment deleted"), "sign": gettext("sign-off"), "undo": gettext("undo"),
        "speech_grant": gettext("word given"), "extra_approve": gettext("judge extra approved"),
        "role_correct": gettext("role corrected"), "seats_repeat": gettext("same players"),
    }
    return str(labels.get(kind, kind))
