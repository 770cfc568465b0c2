"""Schemathesis against the live server's /openapi.json, on SQLite and PostgreSQL: no input
gets a 5xx, and every response matches its documented schema.

Run through Schemathesis's own command line (all its phases: examples, coverage, fuzzing,
stateful), bounded at 50 examples per operation. A hook sends most generated checks to
the loaded policy (random names would only ever reach the 404) and uses the operator
token for /metrics, the explain view of a policy and the canary battery (the server reads
conversations, so that the battery runs); every other request carries the
expert token.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from redline.service.testing import LiveServer

ROOT = Path(__file__).parent.parent.parent
HOOKS = """
import os
import schemathesis

@schemathesis.hook
def before_call(context, case, kwargs):
    if case.path == "/v1/check" and isinstance(case.body, dict) and isinstance(case.body.get("policy"), str):
        if hash(repr(case.body.get("text"))) % 4:
            case.body["policy"] = "example-support"
    if case.path == "/review/canary-battery/run" and isinstance(case.body, dict) and hash(repr(case.body)) % 2:
        case.body["policy"] = "example-support"
    if case.path in ("/metrics", "/v1/policies/{name}", "/review/canary-battery/run"):
        case.headers = {**(case.headers or {}), "Authorization": "Bearer " + os.environ["REDLINE_OPERATOR_TOKEN"]}
    if case.path == "/v1/policies/{name}" and hash(repr(case.path_parameters)) % 2:
        case.path_parameters = {**(case.path_parameters or {}), "name": "example-support"}
"""


def test_no_input_gets_a_server_error_and_every_reply_matches_the_schema(db_url: str, tmp_path: Path) -> None:
    policies = tmp_path / "policies"
    policies.mkdir()
    shutil.copy(ROOT / "examples" / "policy.yaml", policies / "example.yaml")
    hooks = tmp_path / "st_hooks.py"
    hooks.write_text(HOOKS)
    live = {"REDLINE_REVIEW_CONTEXT": "live"}  # so that the canary battery route runs (503 while dark)
    with LiveServer(policies, db_url, tmp_path / "decisions.jsonl", tmp_path / "server.log", env=live) as server:
        server.run()
        env = {
            **os.environ,
            "SCHEMATHESIS_HOOKS": str(hooks),
            "REDLINE_OPERATOR_TOKEN": server.tokens["operator"],
        }
        command = [
            sys.executable, "-m", "schemathesis.cli", "run", server.url + "/openapi.json",
            "--header", f"Authorization: Bearer {server.tokens['expert']}",
            "--checks", "not_a_server_error,response_schema_conformance",
            "--max-examples", "50", "--workers", "1", "--seed", "20240601",
            "--suppress-health-check", "all", "--generation-database", "none",
            "--request-timeout", "30", "--no-color",
        ]  # fmt: skip
        # one worker: with two, Schemathesis's own source cache sometimes raises a KeyError
        # mid-run; a run that failed only inside Schemathesis itself is tried once more
        for _attempt in range(2):
            result = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
            if not _schemathesis_crashed(result.stdout + result.stderr):
                break
        output = result.stdout + result.stderr
        assert result.returncode == 0, _problems(output)
        assert "Tested: 17" in output, output[-4000:]
    server_output = server.tail(500_000)
    assert "Traceback" not in server_output, server_output[-8000:]


def _problems(output: str) -> str:
    """The failures and errors sections of a Schemathesis report (they come before the summary)."""
    start = min((i for i in (output.find("= FAILURES ="), output.find("= ERRORS =")) if i >= 0), default=0)
    return output[max(0, output.rfind("\n", 0, start)) :][:20000]


def _schemathesis_crashed(output: str) -> bool:
    """Schemathesis failed inside itself, with no check failing against the server."""
    return "Runtime Error" in output and "= FAILURES =" not in output
