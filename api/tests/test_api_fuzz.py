"""schemathesis against the API's own OpenAPI schema, inside the suite: for every operation a bounded number of
generated requests (derandomised: the same ones on every run), on the demo club with a game in play. No answer is a
server error, and every answer — its status, content type, headers and body — is one the schema declares. Negative
cases (values the schema forbids) must be refused without a server error either."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.services import token_issue

pytestmark = pytest.mark.django_db(transaction=False)

EXAMPLES = 12
CONFORMANCE = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
               response_schema_conformance]


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """The WSGI handler closes the database connection after each request (CONN_MAX_AGE); inside the test's
    transaction that would end it. Django's test client keeps it the same way (it disconnects the same receiver)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _operations():
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 17
    return operations


def _run(operation, mode, checks, headers=None, examples=EXAMPLES):
    @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(generation_mode=mode))
    def check(case):
        case.call_and_validate(headers=headers, checks=checks)

    check()


@pytest.mark.parametrize("reader", ["anonymous", "staff token"])
def test_every_operation_answers_only_what_its_schema_declares(scene, reader):
    from django.contrib.auth import get_user_model

    from club.models import Club

    headers = None
    if reader == "staff token":
        club = Club.objects.get()
        admin = get_user_model().objects.get(username="admin")
        key = token_issue(club=club, by=admin, name="fuzz", holder=admin)[1]
        headers = {"Authorization": f"Bearer {key}"}
    for operation in _operations():
        _run(operation, GenerationMode.POSITIVE, CONFORMANCE, headers, EXAMPLES if headers is None else 6)


def test_values_the_schema_forbids_are_refused_never_a_server_error(scene):
    for operation in _operations():
        _run(operation, GenerationMode.NEGATIVE, [not_a_server_error, status_code_conformance], examples=6)
