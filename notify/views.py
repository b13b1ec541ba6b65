"""The bot's webhook, the player's notice settings and the one-click unsubscribe."""

from __future__ import annotations

import hmac
import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest, HttpResponseForbidden, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from notify import bot, mailings, selectors, services
from notify.outbox import KINDS
from notify.services import CHANNELS


@csrf_exempt
@require_POST
def webhook(request):
    """Telegram's updates: only with the secret header equal to TELEGRAM_WEBHOOK_SECRET (403 otherwise, nothing done)."""
    expected = settings.TELEGRAM_WEBHOOK_SECRET
    given = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
    if not expected or not hmac.compare_digest(given.encode(), expected.encode()):
        return HttpResponseForbidden()
    try:
        update = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return HttpResponseBadRequest()
    if not isinstance(update, dict):
        return HttpResponseBadRequest()
    return JsonResponse({"ok": True, "done": bot.handle(update)})


@login_required
@require_http_methods(["GET", "POST"])
def notice_settings(request):
    """The player's one place for his notices: Telegram linked or not, each kind per channel, his calendar."""
    user = request.user
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "telegram_link":
            services.telegram_start_token(user=user)
        elif action == "telegram_unlink":
            services.telegram_unlink(user=user)
            messages.success(request, _("Telegram is unlinked."))
        elif action == "calendar":
            services.calendar_reset(user=user)
            messages.success(request, _("A new calendar address is made; the old one no longer works."))
        else:
            on = {(k, c) for k in KINDS for c in CHANNELS if request.POST.get(f"{k}_{c}")}
            services.notices_set(user=user, on=on)
            messages.success(request, _("Notice settings saved."))
        return redirect("notify:settings")
    return render(request, "notify/settings.html", selectors.settings_context(request, user))


@csrf_exempt  # RFC 8058: the mail client posts "List-Unsubscribe=One-Click" with no session and no CSRF token
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """A letter's one-click unsubscribe of its kind: GET asks, POST switches that kind of letter off."""
    parsed = mailings.read_unsubscribe(token)
    user = get_user_model().objects.filter(pk=parsed[0]).first() if parsed else None
    if parsed is None or user is None or parsed[1] not in KINDS:
        return render(request, "notify/unsubscribe.html", {"invalid": True})  # as Django's own stale links: a page
    kind = parsed[1]
    done = request.method == "POST"
    if done:
        services.notice_off(user=user, kind=kind, channel="email")
    return render(request, "notify/unsubscribe.html", {"kind": selectors.kind_label(kind), "done": done})

