"""The organiser's message by audience (Telegram and e-mail, Django's mail outbox), the letter's List-Unsubscribe
and its one-click page, the player's one settings page, and the calendar feeds read back by icalendar's parser."""

from __future__ import annotations

import datetime as dt

import icalendar
import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from club.models import Club, ClubMember, Player
from games.tournaments.signups import services as signups
from notify import delivery, mailings
from notify.models import CalendarFeed, NoticeSetting, Outbox
from notify.tests.conftest import link_user, no_sleep

pytestmark = pytest.mark.django_db


def _message(client, cast, **data):
    client.force_login(cast.admin)
    return client.post(reverse("notify:sheet_message", args=[cast.sheet.pk]),
                       {"who": "confirmed", "body": "Начинаем в 19:00, не опаздывайте.", "telegram": "on",
                        "email": "on", **data})


def test_the_organisers_message_reaches_the_audience_by_telegram_and_by_mail(cast, bot_api, client):
    for index in range(4):
        signups.sign_up(sheet=cast.sheet, by=cast.users[index])  # three signed up, the fourth waits
    link_user(cast.users[0], 5000)
    link_user(cast.users[3], 5003)
    assert _message(client, cast).status_code == 302
    delivery.deliver_due(sleep=no_sleep)
    [telegram] = bot_api.sent(chat_id=5000)
    assert "От организатора события «Вечер пятницы»" in telegram["text"] and "19:00" in telegram["text"]
    assert bot_api.sent(chat_id=5003) == []  # waiting: not this audience
    assert sorted(m.to[0] for m in mail.outbox) == [f"player{i}@example.org" for i in range(3)]
    letter = mail.outbox[0]
    unsubscribe = letter.extra_headers["List-Unsubscribe"].strip("<>")
    assert unsubscribe.startswith("https://club.example.org/notices/unsubscribe/")
    assert letter.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe in letter.body


def test_the_audiences_waiting_and_all_members(cast, bot_api):
    for index in range(4):
        signups.sign_up(sheet=cast.sheet, by=cast.users[index])
    assert [u.pk for u in mailings.audience(cast.sheet, "waiting")] == [cast.users[3].pk]
    assert len(mailings.audience(cast.sheet, "members")) == 6
    # "All members" are the club's members (club.selectors.member_players): one whose home club is another is in,
    # a player of another club who is not a member is out (docs/persons.md).
    other = Club.objects.create(name="Соседи")
    users = get_user_model().objects
    visitor = Player.objects.create(club=other, nickname="Гость", user=users.create_user("visitor"))
    Player.objects.create(club=other, nickname="Чужой", user=users.create_user("stranger"))
    ClubMember.objects.create(player=visitor, club=cast.sheet.club)
    members = mailings.audience(cast.sheet, "members")
    assert len(members) == 7 and visitor.user in members


def test_only_the_organiser_sends_and_bad_input_names_its_field(cast, bot_api, client):
    client.force_login(cast.users[0])
    assert client.post(reverse("notify:sheet_message", args=[cast.sheet.pk]),
                       {"who": "members", "body": "x", "email": "on"}).status_code == 403
    answer = _message(client, cast, body="", telegram="", email="")
    assert answer.status_code == 400
    answer = _message(client, cast, telegram="", email="")
    assert answer.status_code == 400 and "Каналы" in answer.content.decode()
    assert not Outbox.objects.exists()


def test_one_click_unsubscribe_switches_that_kind_of_letter_off(cast, bot_api, client):
    user = cast.users[0]
    signups.sign_up(sheet=cast.sheet, by=user)
    url = reverse("notify:unsubscribe", args=[mailings.unsubscribe_token(user.pk, "mailing")])
    page = client.get(url)
    assert page.status_code == 200 and not NoticeSetting.objects.exists()  # a GET asks, never writes
    answer = client.post(url, {"List-Unsubscribe": "One-Click"})  # what a mail client posts, with no session
    assert answer.status_code == 200 and 'data-testid="unsubscribed"' in answer.content.decode()
    assert NoticeSetting.objects.filter(user=user, kind="mailing", channel="email").exists()
    _message(client, cast)
    delivery.deliver_due(sleep=no_sleep)
    assert mail.outbox == []
    forged = client.post(reverse("notify:unsubscribe", args=["forged"]))
    assert "недействительна" in forged.content.decode()
    assert NoticeSetting.objects.count() == 1


def test_the_players_settings_page_switches_each_kind_per_channel(cast, client):
    user = cast.users[0]
    client.force_login(user)
    page = client.get(reverse("notify:settings")).content.decode()
    assert 'name="result_telegram"' in page and 'name="mailing_email"' in page and "checked" in page
    client.post(reverse("notify:settings"), {"action": "save", "reminder_telegram": "on", "mailing_email": "on"})
    off = set(NoticeSetting.objects.filter(user=user).values_list("kind", "channel"))
    assert ("reminder", "telegram") not in off and ("mailing", "email") not in off
    assert ("result", "telegram") in off and ("reminder", "email") in off
    client.logout()
    assert client.get(reverse("notify:settings")).status_code == 302


def test_the_clubs_calendar_carries_time_zone_place_and_link(cast, client, settings):
    settings.SITE_URL = "https://club.example.org"
    cast.club.time_zone = "Asia/Kamchatka"
    cast.club.save()
    answer = client.get(reverse("notify:club_calendar"))
    assert answer["Content-Type"].startswith("text/calendar")
    calendar = icalendar.Calendar.from_ical(answer.content)
    [event] = calendar.walk("VEVENT")
    assert str(event["summary"]) == "Вечер пятницы" and str(event["location"]) == "Тверская, 7"
    assert str(event["url"]) == f"https://club.example.org/games/signups/{cast.sheet.pk}/"
    start = event.decoded("dtstart")
    assert str(start.tzinfo) == "Asia/Kamchatka" and start == cast.sheet.starts_at.replace(microsecond=0)
    assert [str(tz["tzid"]) for tz in calendar.walk("VTIMEZONE")] == ["Asia/Kamchatka"]
    assert str(event["status"]) == "CONFIRMED"


def test_the_players_own_calendar_is_secret_resettable_and_marks_a_cancelled_place(cast, client):
    user = cast.users[0]
    signups.sign_up(sheet=cast.sheet, by=user)
    client.force_login(user)
    client.post(reverse("notify:settings"), {"action": "calendar"})
    secret = CalendarFeed.objects.get(user=user).secret
    client.logout()
    url = reverse("notify:my_calendar", args=[secret])
    [event] = icalendar.Calendar.from_ical(client.get(url).content).walk("VEVENT")
    assert str(event["status"]) == "CONFIRMED"
    signups.sign_up_cancel(sheet=cast.sheet, by=user)
    [event] = icalendar.Calendar.from_ical(client.get(url).content).walk("VEVENT")
    assert str(event["status"]) == "CANCELLED"
    client.force_login(user)
    client.post(reverse("notify:settings"), {"action": "calendar"})
    assert client.get(url).status_code == 404  # the old address stops working
    assert client.get(reverse("notify:my_calendar", args=["guess"])).status_code == 404


def test_an_event_past_a_month_leaves_the_feed(cast, client):
    cast.sheet.starts_at = timezone.now() - dt.timedelta(days=40)
    cast.sheet.opens_at = cast.sheet.starts_at - dt.timedelta(days=2)
    cast.sheet.closes_at = cast.sheet.starts_at - dt.timedelta(days=1)
    cast.sheet.cancel_until = None
    cast.sheet.save()
    assert icalendar.Calendar.from_ical(client.get(reverse("notify:club_calendar")).content).walk("VEVENT") == []
