"""Every refusal code the web app can send is in the documented list
(``realtime.messages.ERROR_CODES``) that the browser's translations follow."""

from __future__ import annotations

import re
from pathlib import Path

from webapp.game.errors import GameActionError
from webapp.realtime.messages import ERROR_CODES

WEBAPP = Path(__file__).resolve().parents[2] / "webapp"


def test_every_code_in_the_source_is_documented() -> None:
    found: set[str] = set()
    for path in WEBAPP.rglob("*.py"):
        text = path.read_text()
        found.update(re.findall(r'\bcode="([a-z_]+)"', text))
        found.update(re.findall(r'^\s+code = "([a-z_]+)"', text, re.MULTILINE))
        found.update(re.findall(r'"code": "([a-z_]+)"', text))
    assert found, "no codes found: the pattern is out of date"
    assert found <= ERROR_CODES, sorted(found - ERROR_CODES)


def test_a_refusal_carries_code_message_and_params() -> None:
    error = GameActionError("wait 3 s", code="claim_too_early", params={"seconds": 3})
    assert error.to_json() == {
        "code": "claim_too_early",
        "message": "wait 3 s",
        "params": {"seconds": 3},
    }
    assert GameActionError("plain").to_json()["code"] == "bad_request"
