"""Tags of the live screens: the opening of an action form (a real form that htmx posts) and the audit log."""

import uuid

from django import template
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.urls import reverse

from games.i18n import action_details, action_label, localize
from games.live.selectors import split_clause

register = template.Library()


@register.inclusion_tag("games/tags/action_form.html", takes_context=True)
def action_form(context, game_pk, kind, version, css="", target="") -> dict:
    """`<form>` posting one judge action: plain POST without JS, hx-post with it; carries version + action id."""
    request = context.get("request")
    # Without JS the form posts as it is; with JS, static/js/live.js sends it through its queue (action id, the
    # current version, kept in the browser while the network is down).
    return {"url": reverse("games:judge_action", args=[game_pk, kind]), "css": css, "kind": kind, "target": target,
            "token": get_token(request) if request is not None else "", "version": version,
            "action_id": uuid.uuid4().hex}


@register.filter(name="action_label")
def action_label_filter(kind: str) -> str:
    """A judge action's stored kind ("nominate", "don_check" …) → its label in the reader's language."""
    return action_label(kind or "")


@register.filter(name="action_details")
def action_details_filter(payload) -> str:
    """A judge action's payload as words («место 3, фолы +1»), never the stored dict."""
    return action_details(payload)


@register.filter
def clause_last(message) -> str:
    """A message in plain words, its rule code behind a tap: `<details class="clause">` "правило" (the reader sees
    what happens; the clause is one tap away, never in the running text)."""
    clause, rest = split_clause(str(message or ""))
    if not clause:
        return rest
    return render_to_string("games/tags/clause.html", {"with_rest": True, "rest": rest, "clause": clause})


@register.filter
def clause_tap(clause) -> str:
    """A rule-book clause behind a tap: "правило", opened to show the clause ("" when there is none)."""
    if not clause:
        return ""
    return render_to_string("games/tags/clause.html", {"clause": clause})


@register.filter
def extra_key(value) -> str:
    """A judge-extra value as the test id names it ("0,3", "-0,5"): the same in every language."""
    return format(value, "f").replace(".", ",")


@register.filter
def get_item(mapping, key):
    return mapping.get(key, "") if mapping else ""


@register.filter
def localized(value) -> str:
    """An engine text (`games.rules` keeps English templates) in the reader's language."""
    return str(localize(value))


NICK_WORD_FITS = 7  # letters of a word that fit a phone's seat tile (390 px: 60 px at 12 px) at the tile's size
NICK_WORD_FITS_SMALL = 9  # ... at the smaller size


@register.filter
def nick_fit(nickname) -> str:
    """The seat tile's size classes for a nickname; a word is never split. A one-word nickname stays on one line,
    cut with an ellipsis if it still does not fit (nothing is gained by a second line); a long word makes the
    nickname smaller; a word too long even then puts the nickname on one line with an ellipsis. The full nickname
    is the tile's title."""
    words = str(nickname or "").split()
    longest = max((len(word) for word in words), default=0)
    classes = ["nick-small"] if longest > NICK_WORD_FITS else []
    if len(words) <= 1 or longest > NICK_WORD_FITS_SMALL:
        classes.append("nick-one")
    return " ".join(classes)
