"""A loopback stand-in for the part of GitHub's REST API that `catalogaudit ci` uses: list an
issue's comments (paginated), create one, update one. It records every request (method, path,
query, headers, JSON body) so tests can check the marker, the auth header and that a second run
updates the comment the first one created.

Shapes follow https://docs.github.com/en/rest/issues/comments (list: GET
/repos/{owner}/{repo}/issues/{n}/comments?per_page&page; create: POST the same path with
{"body"}; update: PATCH /repos/{owner}/{repo}/issues/comments/{id}) and GET /user, which an
installation token (the Actions GITHUB_TOKEN) is refused with 403 "Resource not accessible by
integration" (https://docs.github.com/en/rest/users/users#get-the-authenticated-user); its
comments are then written by `github-actions[bot]`. `login` set: a user's token instead.

`hostile`, when set, answers first: it gets the request handler and returns True when it wrote
the answer (raw bytes, a trickle, a bomb), so tests can make the API misbehave in any way.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

BOT = "github-actions[bot]"


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any


@dataclass
class GitHubStandIn:
    """The server's state: comments per issue, every request, an optional forced status."""

    token: str
    comments: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    requests: list[Recorded] = field(default_factory=list)
    fail_with: int | None = None
    #: The token's user for GET /user (None: an installation token, refused there with 403).
    login: str | None = None
    hostile: Callable[[BaseHTTPRequestHandler], bool] | None = None
    next_id: int = 1000
    url: str = ""
    _server: ThreadingHTTPServer | None = None

    def __enter__(self) -> GitHubStandIn:
        state = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _answer(self, status: int, doc: Any) -> None:
                data = json.dumps(doc).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _handle(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                body = json.loads(raw) if raw else None
                state.requests.append(
                    Recorded(
                        self.command,
                        parts.path,
                        parse_qs(parts.query),
                        {k.lower(): v for k, v in self.headers.items()},
                        body,
                    )
                )
                if self.headers.get("Authorization") != f"Bearer {state.token}":
                    return self._answer(401, {"message": "Bad credentials"})
                if state.hostile is not None and state.hostile(self):
                    return None
                if state.fail_with is not None:
                    return self._answer(state.fail_with, {"message": "forced failure"})
                if parts.path == "/user" and self.command == "GET":
                    if state.login is None:
                        message = "Resource not accessible by integration"
                        return self._answer(403, {"message": message})
                    return self._answer(200, {"login": state.login, "type": "User"})
                issue = re.fullmatch(r"/repos/([^/]+)/([^/]+)/issues/(\d+)/comments", parts.path)
                one = re.fullmatch(r"/repos/([^/]+)/([^/]+)/issues/comments/(\d+)", parts.path)
                if issue and self.command == "GET":
                    query = parse_qs(parts.query)
                    per_page = int(query.get("per_page", ["30"])[0])
                    page = int(query.get("page", ["1"])[0])
                    items = state.comments.get(int(issue[3]), [])
                    return self._answer(200, items[(page - 1) * per_page : page * per_page])
                if issue and self.command == "POST":
                    comment = state._new(int(issue[3]), body["body"])
                    return self._answer(201, comment)
                if one and self.command == "PATCH":
                    for items in state.comments.values():
                        for c in items:
                            if c["id"] == int(one[3]):
                                c["body"] = body["body"]
                                return self._answer(200, c)
                    return self._answer(404, {"message": "Not Found"})
                return self._answer(404, {"message": "Not Found"})

            do_GET = do_POST = do_PATCH = _handle

        class Server(ThreadingHTTPServer):
            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client that hangs up on a hostile answer is what the tests provoke

        self._server = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def _new(self, issue: int, body: str, login: str | None = None) -> dict[str, Any]:
        self.next_id += 1
        comment = {
            "id": self.next_id,
            "body": body,
            "html_url": f"https://github.test/o/r/pull/{issue}#issuecomment-{self.next_id}",
            "user": {"login": login or self.login or BOT},
        }
        self.comments.setdefault(issue, []).append(comment)
        return comment

    def add(self, issue: int, body: str, login: str = "octocat") -> dict[str, Any]:
        """A comment someone else wrote (the gate must leave it alone)."""
        return self._new(issue, body, login)

    def __exit__(self, *exc: Any) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()


def read_outputs(path: Path) -> dict[str, str]:
    """A GITHUB_OUTPUT file as the runner reads it: `name=value` lines and `name<<DELIMITER`
    blocks (https://docs.github.com/en/actions/reference/workflow-commands-for-github-actions
    #multiline-strings); a later value of a name wins."""
    lines = path.read_text(encoding="utf-8").split("\n")
    out: dict[str, str] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            end = lines.index(delimiter, i)
            out[name] = "\n".join(lines[i:end])
            i = end + 1
        else:
            name, value = line.split("=", 1)
            out[name] = value
    return out
