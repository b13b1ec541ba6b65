"""`{{ user|person_name }}`: a person as the club knows him — his nickname or full name, never only his login."""

from django import template

from club.selectors import person_name as _person_name

register = template.Library()


@register.filter
def person_name(user) -> str:
    return _person_name(user)
