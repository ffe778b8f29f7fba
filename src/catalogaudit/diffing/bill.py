"""What a change to the bytes clients send costs: tokens re-sent per session and money per
1,000 sessions, per provider, from dated, sourced price data (`prices.json`, or `--prices`).

A prompt cache matches the request from its first token, so when a catalog's bytes differ
from the copy a cache holds, every token from the first difference on is billed again: as a
cache write where the provider charges one (Anthropic, at the TTL the data names), at the
uncached input price otherwise (OpenAI, Google), instead of as a cache read. Each provider is
priced on the prompt of a client that talks to it (`clients` in the data), predicted from its
profile (`canonical.ClientPrompt`); a provider with no such client is priced on the served
prompt projection. Below a provider's minimum cacheable prefix nothing of the catalog alone
is cached (a client's own system prompt and built-in tools usually come first and count).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from catalogaudit.canonical import (
    ClientPrompt,
    count_tokens,
    token_label,
    tokens_resent,
)
from catalogaudit.errors import InputError

SESSIONS = 1000
#: client -> input label -> its predicted prompt (the baseline first), computed when asked, so
#: a bill holds one client's prompts at a time; empty for a client without `model_view` data.
Prompts = Callable[[str], Mapping[str, ClientPrompt]]


@cache
def default_prices() -> dict[str, Any]:
    """The price data shipped in the package (its schema is checked by the tests, so no
    schema library is loaded for it)."""
    text = resources.files("catalogaudit.diffing").joinpath("prices.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def _schema() -> dict[str, Any]:
    text = resources.files("catalogaudit.diffing").joinpath("prices.schema.json").read_text()
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def check_prices(doc: Any, name: str) -> dict[str, Any]:
    """`doc` if it is price data, else an `InputError` naming the first problem."""
    import jsonschema  # lazy: only a bill needs it

    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(_schema()).iter_errors(doc)
    )
    if error is not None:
        where = "/" + "/".join(str(p) for p in error.absolute_path)
        raise InputError(f"{name}: not price data: {where}: {error.message}")
    for pid, spec in doc["providers"].items():
        family = spec["families"].get(spec["family"])
        if family is None:
            raise InputError(f"{name}: provider {pid}: family {spec['family']!r} has no prices")
        if spec["ttl"] not in family["cacheWrite"]:
            raise InputError(f"{name}: provider {pid}: no cacheWrite price for {spec['ttl']!r}")
    return dict(doc)


def prices_header(prices: Mapping[str, Any], source: str) -> dict[str, Any]:
    """Where the prices come from, for the report: date, currency, file, sources."""
    return {
        "date": prices["date"],
        "currency": prices["currency"],
        "source": source,
        "sources": sorted({s for p in prices["providers"].values() for s in p["sources"]}),
    }


def bill(
    prompts: Prompts,
    served: tuple[Callable[[], int], Mapping[str, int]],
    prices: Mapping[str, Any],
    known: dict[bytes, int] | None = None,
) -> list[dict[str, Any]]:
    """One row per provider and client: tokens re-sent per session against input 1 (the
    baseline), the worst input's cost per session and per 1,000 sessions, and whether the
    prefix is below the provider's minimum. `served`: the served projection's tokens
    (baseline; counted only for a provider with no client) and tokens re-sent per input.
    `known`: token counts of text parts (`canonical.count_tokens`), shared by every client:
    their prompts hold the same names, descriptions and schemas in other wrappers."""
    known = {} if known is None else known
    rows = []
    for pid, spec in prices["providers"].items():
        found = []
        for client in [c for c, p in (prices.get("clients") or {}).items() if p == pid]:
            by_input = prompts(client)
            first = next(iter(by_input.values()), None)
            if first is not None and not first.missing:
                found.append(_client_row(by_input, client, known))
            del by_input, first  # NOTE: else alive while the next client's are predicted
        if not found:
            row: dict[str, Any] = {
                "client": None,
                "prompt": None,
                "note": "no client of this provider has model_view data: priced on the "
                "served prompt projection",
            }
            found.append((served[0](), dict(served[1]), row))
        for total, per_input, row in found:
            priced = _priced(spec, total, per_input)
            rows.append({"provider": pid, **row, **priced, "tokenizer": _tokenizer(pid, spec)})
    return rows


def _client_row(
    by_input: Mapping[str, ClientPrompt], client: str, known: dict[bytes, int]
) -> tuple[int, dict[str, int], dict[str, Any]]:
    """`client`'s tokens on input 1, tokens re-sent per other input, and what identifies its
    prompts. Each text is written once, and held as UTF-8."""
    labels = list(by_input)
    first = by_input[labels[0]]
    digests: dict[str, str] = {}
    texts: dict[str, bytes] = {}
    for k, p in by_input.items():
        texts[k], digests[k] = p.hashed_utf8()
    base = texts.pop(labels[0])
    total = count_tokens(base, known) if first.inline else 0
    per_input = {k: tokens_resent(base, text, known) for k, text in texts.items()}
    row = {
        "client": client,
        "version": first.version,
        "mode": first.mode,
        "prompt": digests[labels[0]],
        "prompts": digests,
        **({"note": first.note} if first.note else {}),
    }
    return total, per_input, row


def _tokenizer(pid: str, spec: Mapping[str, Any]) -> str:
    return str(spec.get("tokenizer") or token_label(pid))


def _priced(spec: Mapping[str, Any], total: int, per_input: Mapping[str, int]) -> dict[str, Any]:
    family = spec["families"][spec["family"]]
    worst = max(per_input.values(), default=0)
    extra = float(family["cacheWrite"][spec["ttl"]]) - float(family["cacheRead"])
    session = worst * extra / 1_000_000
    minimum = int(family["minimumPrefix"])
    return {
        "family": spec["family"],
        "ttl": spec["ttl"],
        "tokens": total,
        "resent": worst,
        "perInput": dict(per_input),
        "rebills": worst > 0,
        "cost": {
            "perSession": round(session, 6),
            "perThousandSessions": round(session * SESSIONS, 4),
        },
        "minimumPrefix": minimum,
        "belowMinimum": total < minimum,
    }
