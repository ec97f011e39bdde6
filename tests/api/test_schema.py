"""Schemathesis against the OpenAPI schema: whatever a client sends, no 5xx, and answers match the schema.

The cases are generated per operation with Hypothesis inside one test per database, because
schemathesis' pytest integration cannot take the parametrized service fixture the other tests use.
"""

from __future__ import annotations

import io

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from bunseki.api import create_app
from bunseki.samples import SALES_CSV
from bunseki.service import AnalysisService
from tests.api.test_investigations_api import sample_case_zip

EXAMPLES = 15  # per operation and database: 41 operations, each also rerun on an id that exists


def test_no_server_errors_whatever_a_client_sends(service: AnalysisService) -> None:
    user, key = service.accounts.create("fuzzer")
    real = service.create_session(SALES_CSV, user_id=user.id).id
    app = create_app(service=service)
    headers = {"Authorization": f"Bearer {key}"}
    checked: list[str] = []
    with TestClient(app):
        run = app.state.eda.start(SALES_CSV, user_id=user.id).run_id  # waits at its plan review
        investigation = app.state.investigations.start_from_upload(
            "case.zip", io.BytesIO(sample_case_zip()), user_id=user.id
        ).investigation_id
        app.state.investigations.wait(investigation)
        schema = schemathesis.openapi.from_asgi("/openapi.json", app)
        for result in schema.get_all_operations():
            operation = result.ok()

            @given(case=operation.as_strategy())
            @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
            def check(case: schemathesis.Case) -> None:
                # Every other check runs; a schema-valid upload is arbitrary bytes, which need not be a table.
                case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance])
                if "session_id" in (case.path_parameters or {}) and case.method != "DELETE":
                    case.path_parameters["session_id"] = real  # the same request on a session that exists
                    case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance])
                if "run_id" in (case.path_parameters or {}) and case.method == "GET":
                    case.path_parameters["run_id"] = run  # reads of an EDA run that exists
                    case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance])
                if "investigation_id" in (case.path_parameters or {}) and case.method == "GET":
                    case.path_parameters["investigation_id"] = investigation  # a finished investigation's reads
                    case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance])

            check()
            checked.append(operation.label)
    assert len(checked) == 41, checked  # every operation of the API was exercised
