"""Tags of the live screens: the opening of an action form (a real form that htmx posts) and the audit log."""

import re
import uuid

from django import template
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from games.i18n import action_details, action_label, localize

register = template.Library()


@register.simple_tag(takes_context=True)
def action_form(context, game_pk, kind, version, css="", target=""):
    """`<form>` posting one judge action: plain POST without JS, hx-post with it; carries version + action id."""
    url = reverse("games:judge_action", args=[game_pk, kind])
    request = context.get("request")
    token = get_token(request) if request is not None else ""
    extra = format_html(' hx-target="{}"', target) if target else ""
    # Without JS the form posts as it is; with JS, static/js/live.js sends it through its queue (action id, the
    # current version, kept in the browser while the network is down).
    return format_html(
        '<form method="post" action="{}" class="{}" data-kind="{}"{}>'
        '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
        '<input type="hidden" name="version" value="{}"><input type="hidden" name="action_id" value="{}">',
        url, css, kind, extra, token, version, uuid.uuid4().hex)


@register.filter(name="action_label")
def action_label_filter(kind: str) -> str:
    """A judge action's stored kind ("nominate", "don_check" …) → its label in the reader's language."""
    return action_label(kind or "")


@register.filter(name="action_details")
def action_details_filter(payload) -> str:
    """A judge action's payload as words («место 3, фолы +1»), never the stored dict."""
    return action_details(payload)


# "002 I.6.17: nobody is nominated" / "000 4.4.14 / 002 I.6.18.4: …": the clause(s) at the start of a message.
_LEADING_CLAUSE = re.compile(r"^((?:\d{3} [A-Za-z]*\.?\d[\w.]*(?:\s*/\s*|,\s*)?)+):\s+(.+)$", re.S)


@register.filter
def clause_last(message) -> str:
    """A message with its rule code moved behind it in small print (the code stays as a tooltip too)."""
    text = str(message or "")
    match = _LEADING_CLAUSE.match(text)
    if not match:
        return format_html("{}", text)
    clause, rest = match.group(1).strip(), match.group(2)
    return format_html('{} <small class="clause text-body-secondary" title="{}">{}</small>', rest, clause, clause)


@register.filter
def seat_list(numbers) -> str:
    return format_html_join(", ", "{}", ((n,) for n in numbers or []))


@register.filter
def get_item(mapping, key):
    return mapping.get(key, "") if mapping else ""


@register.filter
def localized(value) -> str:
    """An engine text (`games.rules` keeps English templates) in the reader's language."""
    return str(localize(value))
