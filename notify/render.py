"""The messages' words: Bot API payloads drawn from the site's data, in the reader's language (templates under
templates/notify/telegram/). The club chat reads the club's language, a player his Telegram account's.

What reaches a chat: the event's name, time, place and counts — never a player's name; a player's own result
only after the game is signed and only when its results are not hidden (a hidden round's game sends nothing).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

from django.conf import settings
from django.core import signing
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import pgettext

from games.tournaments.signups.models import Signup, SignupSheet
from notify import results
from notify.models import Announcement, Outbox

LATER = "later"  # the row's data is not ready yet (its announcement not sent, the Elo not computed)
SIGNER = signing.Signer(salt="notify.callback")
ELO_GRACE = dt.timedelta(minutes=2)


def language(code: str | None) -> str:
    """Telegram's language_code ("ru", "en-GB") as one of the site's languages, else the club's."""
    short = (code or "").split("-")[0].lower()
    return short if short in {c for c, _n in settings.LANGUAGES} else settings.LANGUAGE_CODE


def site_url(path: str) -> str:
    return settings.SITE_URL + path


def local(value: dt.datetime, club) -> str:
    zone = zoneinfo.ZoneInfo(club.time_zone) if club.time_zone else None
    return formats.date_format(value.astimezone(zone) if zone else value, "j E Y, H:i")


def text(template: str, lang: str, **context) -> str:
    with translation.override(lang):
        return render_to_string(f"notify/telegram/{template}.txt", context).strip()


def callback_data(action: str, sheet_id: int) -> str:
    return SIGNER.sign(f"{action}:{sheet_id}")  # under Telegram's 64 bytes


def read_callback(data: str) -> tuple[str, int] | None:
    try:
        action, sheet_id = SIGNER.unsign(data).split(":")
        return action, int(sheet_id)
    except (signing.BadSignature, ValueError):
        return None


def sheet_facts(sheet: SignupSheet) -> dict:
    counts = {s: sheet.signups.filter(status=s).count() for s in (Signup.Status.CONFIRMED, Signup.Status.WAITING)}
    confirmed, waiting = counts[Signup.Status.CONFIRMED], counts[Signup.Status.WAITING]
    return {"event": str(sheet.event), "when": local(sheet.starts_at, sheet.club), "place": sheet.place,
            "limit": sheet.limit, "confirmed": confirmed, "waiting": waiting,
            "free": None if sheet.limit is None else max(sheet.limit - confirmed, 0),
            "closed": sheet.converted_at is not None,
            "url": site_url(reverse("games:signup_sheet", args=[sheet.pk])) if settings.SITE_URL else ""}


def announcement(sheet: SignupSheet) -> dict:
    """The club chat's message: the event and its counts, with the two buttons."""
    lang = settings.LANGUAGE_CODE
    facts = sheet_facts(sheet)
    with translation.override(lang):
        buttons = [[{"text": pgettext("event", "Sign up"), "callback_data": callback_data("s", sheet.pk)},
                    {"text": pgettext("event", "Cancel"), "callback_data": callback_data("c", sheet.pk)}]]
    payload: dict = {"text": text("announce", lang, **facts)}
    if not facts["closed"]:
        payload["reply_markup"] = {"inline_keyboard": buttons}
    return payload


def payload(row: Outbox, now: dt.datetime) -> dict | str | None:
    """The row's Bot API payload; LATER when its data is not ready; None when there is nothing to send."""
    kind = row.payload.get("render")
    if kind is None:
        return {"chat_id": row.chat_id, **row.payload}
    if kind in ("announce", "edit"):
        return _announcement_payload(row, kind)
    if kind == "result":
        return _result_payload(row, now)
    return None


def _announcement_payload(row: Outbox, kind: str) -> dict | str | None:
    if row.sheet_id is None:
        return None
    sheet = SignupSheet.objects.select_related("club", "evening", "tournament").filter(pk=row.sheet_id).first()
    if sheet is None:
        return None
    drawn = {"chat_id": row.chat_id, **announcement(sheet)}
    if kind == "edit":
        posted = Announcement.objects.filter(sheet=sheet).first()
        if posted is None:
            return None
        if posted.message_id is None:
            announced = Outbox.objects.filter(key=f"announce:{sheet.pk}").values_list("status", flat=True).first()
            return LATER if announced in (Outbox.Status.PENDING, Outbox.Status.SENDING) else None
        drawn["message_id"] = posted.message_id
        drawn.setdefault("reply_markup", {"inline_keyboard": []})
    return drawn


def _result_payload(row: Outbox, now: dt.datetime) -> dict | str | None:
    facts = results.facts(row.payload["game"], row.payload["player"])
    if facts is None:
        return None
    if facts["elo"] is None and facts["counts"] and row.created > now - ELO_GRACE:
        return LATER
    return {"chat_id": row.chat_id, "text": text("result", row.payload.get("lang") or settings.LANGUAGE_CODE,
                                                 **facts)}
