"""Tags of the live screens: the opening of an action form (a real form that htmx posts) and the audit log."""

import uuid

from django import template
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import pgettext

from games.i18n import action_details, action_label, localize
from games.live.selectors import split_clause

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


@register.filter
def clause_last(message) -> str:
    """A message in plain words, its rule code behind a tap: `<details class="clause">` "правило" (the reader sees
    what happens; the clause is one tap away, never in the running text)."""
    clause, rest = split_clause(str(message or ""))
    if not clause:
        return format_html("{}", rest)
    return format_html("{} {}", rest, clause_tap(clause))


@register.filter
def clause_tap(clause) -> str:
    """A rule-book clause behind a tap: "правило", opened to show the clause ("" when there is none)."""
    if not clause:
        return ""
    return format_html('<details class="clause"><summary>{}</summary>{}</details>',
                       pgettext("a rule-book clause, behind a tap", "rule"), clause)


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
