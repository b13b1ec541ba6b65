"""Every URL name of the `notify:` namespace and its path: links in letters, the bot's webhook address registered
with Telegram and the calendar addresses players subscribe to must not move."""

import pytest
from django.urls import get_resolver, resolve, reverse

URLS = [
    ("webhook", {}, "/telegram/webhook/"),
    ("club_chat", {}, "/telegram/club/"),
    ("settings", {}, "/notices/"),
    ("unsubscribe", {"token": "abc"}, "/notices/unsubscribe/abc/"),
    ("sheet_message", {"pk": 7}, "/notices/signups/7/message/"),
    ("club_calendar", {}, "/calendar/club.ics"),
    ("my_calendar", {"secret": "s3cr3t"}, "/calendar/s3cr3t.ics"),
]


@pytest.mark.parametrize(("name", "kwargs", "path"), URLS, ids=[row[0] for row in URLS])
def test_url_name_reverses_to_its_path_and_back(name, kwargs, path):
    assert reverse(f"notify:{name}", kwargs=kwargs) == path
    match = resolve(path)
    assert (match.namespace, match.url_name) == ("notify", name)


def test_no_url_name_added_or_lost_without_this_table():
    names = {name for name in get_resolver().namespace_dict["notify"][1].reverse_dict if isinstance(name, str)}
    assert names == {row[0] for row in URLS}
