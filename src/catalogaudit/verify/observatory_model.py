"""A model client's view over the lattice: what `verify --client C --model` saw of each tool
shape's subject tool, reduced to what a ledger can keep and a profile can predict.

Per shape and mode (Claude Code's `tool-search-off` and `default`, the others' `default`) the
subject tool's observation is
`{"offered", "call", "view"}`: how it was offered, the call outcome (every tool is called), and
`view`, the first 16 hex digits of the SHA-256 of the object sent once canonical (keys sorted,
integral floats as integers: the comparison `verify --model` makes, key order aside), or null
when nothing was sent. The server name the session gave the shape goes beside them (`server`),
since the sent name (`mcp__<server>__<tool>` and the like) is part of the view a prediction
must rebuild.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from catalogaudit.model import DEFAULT, SEARCH_OFF
from catalogaudit.verify.lattice import Shape
from catalogaudit.verify.observatory import SUBJECT, target

MODES = (SEARCH_OFF, DEFAULT)
#: The observation fields, compared one by one.
FIELDS = ("offered", "call", "view")


def digest(view: Any) -> str | None:
    """The canonical view's short SHA-256 (None: no view)."""
    if view is None:
        return None
    text = json.dumps(_plain(view), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def _plain(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def observe_models(
    driver: Any,
    shapes: Sequence[Shape],
    *,
    batch: int = 40,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    keep: Callable[[dict[str, dict[str, Any]]], None] | None = None,
) -> dict[str, dict[str, Any]]:
    """Shape id -> the subject tool's observation, one session per batch (Claude Code: a pair
    of starts, one per mode)."""
    from catalogaudit.verify import observe_model

    out: dict[str, dict[str, Any]] = {}
    lock = threading.Lock()
    with tempfile.TemporaryDirectory(prefix="catalogaudit-lattice-model-") as tmp:
        chunks = [list(shapes[i : i + batch]) for i in range(0, len(shapes), batch)]

        def one(n: int) -> None:
            work = Path(tmp, f"b{n}")
            work.mkdir()
            found = [target(s, work, driver.id) for s in chunks[n]]
            seen = observe_model(driver, found, work, ["all"])
            names = {s.target.label: s.name for s in next(iter(seen.served.values()))}
            got: dict[str, dict[str, Any]] = {sid: {"server": names[sid]} for sid in names}
            for v in seen.views:
                if v.index == SUBJECT:
                    view = None if v.view is None else json.loads(v.view)
                    got[v.catalog][v.mode] = {
                        "offered": v.offered,
                        "call": v.call,
                        "view": digest(view),
                    }
            with lock:
                out.update(got)
                if keep is not None:
                    keep(got)
                if progress is not None:
                    progress(len(chunks[n]))

        with ThreadPoolExecutor(max(jobs, 1)) as pool:
            list(pool.map(one, range(len(chunks))))
    return out


def predict_models(
    profile: str, shapes: Iterable[Shape], servers: dict[str, str]
) -> dict[str, dict[str, Any]]:
    """Shape id -> the profile's prediction, in the observation's form (`servers`: the server
    name each shape was served under)."""
    from catalogaudit.verify import predict_views
    from catalogaudit.verify.model_view import to_call

    out: dict[str, dict[str, Any]] = {}
    client = profile.partition("@")[0]
    for shape in shapes:
        t = target(shape, None, client)
        name = servers[shape.id]
        calls = to_call(t, ["all"], False)
        got: dict[str, Any] = {"server": name}
        for mode in MODES:
            p = predict_views(t, name, profile, mode, calls).get(SUBJECT)
            got[mode] = (
                {"offered": None, "call": None, "view": None, "because": ""}
                if p is None
                else {
                    "offered": p.offered,
                    "call": p.call,
                    "view": digest(p.view),
                    "because": p.because,
                }
            )
        out[shape.id] = got
    return out


def differences(observed: dict[str, Any], predicted: dict[str, Any]) -> list[str]:
    """`mode field` for each observed field the prediction differs on (empty: a match)."""
    return [
        f"{mode} {f}"
        for mode in MODES
        for f in FIELDS
        if mode in observed and observed[mode].get(f) != predicted[mode].get(f)
    ]


def model_shapes(client: str, version: str | None = None) -> list[Shape]:
    """The shapes whose defect is in the tools listing that the client observes (both eras,
    where its driver speaks them)."""
    from catalogaudit.verify.lattice import shapes
    from catalogaudit.verify.observatory import applicable

    return [
        s
        for s in shapes()
        if applicable(client, s, version) and (s.pointer or "/tools").split("/")[1] == "tools"
    ]
