"""Web UI replicas for the scale tests: each one a process of its own running the UI's script, as
`bunseki ui` does, over the deployment's database and workspace root.

A replica holds its browsers as Streamlit's AppTest sessions (the state Streamlit keeps per browser,
in the process its websocket reached) and is driven over its stdin: one JSON command per line, one
JSON view of the page per reply. A browser the load balancer moves to another replica arrives there
as a new browser session with the page's address (its query parameters), as Streamlit's reconnect does.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from tests.scale.replicas_support import TEST_BRAIN, Deployment

REPLY = "UI-REPLY "  # marks the replica's answers among whatever else the process prints

UI_REPLICA = f"""
import json
import sys

from streamlit.testing.v1 import AppTest

from bunseki.ui import APP
{TEST_BRAIN}

browsers = {{}}


def view(app):
    chat = []
    for message in app.chat_message:
        chat.append({{
            "role": message.name,
            "text": "\\n".join(str(b.value) for kind in ("markdown", "code", "caption") for b in message.get(kind)),
            "images": len(message.image),
            "tables": len(message.dataframe),
        }})
    resume = [box for box in app.selectbox if box.key == "resume_choice"]
    return {{
        "exceptions": [str(error.value) for error in app.exception],
        "session": app.session_state["session_id"] if "session_id" in app.session_state else None,
        "query": dict(app.query_params),
        "chat": chat,
        "infos": [str(info.value) for info in app.info],
        "steps": [str(caption.value) for caption in app.sidebar.caption],
        "past_sessions": list(resume[0].options) if resume else [],
        "uploader": bool(app.file_uploader),
    }}


for line in sys.stdin:
    command = json.loads(line)
    name = command["browser"]
    if command["op"] == "open":
        app = browsers[name] = AppTest.from_file(str(APP), default_timeout=300)
        app.context["locale"] = "ja-JP"
        app.query_params.update(command.get("query", {{}}))
        app.run()
    app = browsers[name]
    if command["op"] == "upload":
        path = command["path"]
        app.file_uploader[0].upload(path.rsplit("/", 1)[-1], open(path, "rb").read(), "text/csv").run()
    elif command["op"] == "ask":
        app.chat_input[0].set_value(command["question"]).run()
    elif command["op"] == "resume":
        app.selectbox(key="resume_choice").set_value(command["session"]).run()
        app.button(key="resume").click().run()
    print({REPLY!r} + json.dumps(view(app), ensure_ascii=False), flush=True)

import streamlit

streamlit.cache_resource.clear()  # closes the replica's service, and with it its sandboxes
"""


@dataclass
class UiReplica:
    """One UI server process; ``do`` sends it a command for one of its browsers and returns the page."""

    process: subprocess.Popen[str]
    log: Path

    @classmethod
    def start(cls, deployment: Deployment, name: str) -> UiReplica:
        log = deployment.logs / f"ui-{name}.log"
        with log.open("w") as errors:
            process = subprocess.Popen(
                [sys.executable, "-c", UI_REPLICA],
                env=deployment.environment(),
                cwd=deployment.logs,  # no .env file of the repository is read
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=errors,
                text=True,
            )
        return cls(process, log)

    def do(self, op: str, browser: str, **arguments: Any) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"op": op, "browser": browser, **arguments}) + "\n")
        self.process.stdin.flush()
        page = _reply(self.process.stdout)
        assert page is not None, f"the UI replica stopped: {self.log.read_text()[-3000:]}"
        assert page["exceptions"] == [], page["exceptions"]
        return page

    def stop(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()  # the replica's loop ends; its services close their sandboxes
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)
        if self.process.stdout is not None:
            self.process.stdout.close()


def _reply(output: IO[str]) -> dict[str, Any] | None:
    for line in output:
        if line.startswith(REPLY):
            page: dict[str, Any] = json.loads(line.removeprefix(REPLY))
            return page
    return None
