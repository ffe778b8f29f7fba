"""Listings: follow `nextCursor` through every page, within limits, and record what was odd.

Pagination follows P:<rev>/server/utilities/pagination, with the guards an auditor needs: a page
cap, repeated cursors, duplicate items across pages, `""` as a cursor only in 2026-07-28, and
wire anomalies (duplicate keys, NaN, lone surrogates, invalid UTF-8, unsafe integers) turned
into findings with the item they sit in.
"""

from __future__ import annotations

import time
from typing import Any

from catalogaudit.errors import ServerError
from catalogaudit.model import (
    CAPABILITY_OF,
    IDENTITY,
    METHODS,
    Finding,
    Listing,
    Page,
    Session,
    Severity,
    anomalies,
    anomaly_findings,
    dump_string,
    identity,
    unsafe_integers,
)
from catalogaudit.wire.transport import Limits, Reply, ServerTimeout, Transport


def fetch_listing(
    transport: Transport, session: Session, name: str, limits: Limits, deadline: float
) -> Listing:
    """Follow `nextCursor` through every page of one listing, within the limits."""
    method = METHODS[name]
    listing = Listing(name, session.advertised(name), "ok")
    cursor: str | None = None
    cursors: set[str] = set()
    first_page: dict[str, int] = {}
    while True:
        if len(listing.pages) >= limits.max_pages:
            raise ServerError(
                f"{transport.describe()}, {method}: still paginating after "
                f"{limits.max_pages} pages (raise --max-pages if this is real)"
            )
        left = deadline - time.monotonic()
        if left <= 0:
            raise ServerTimeout(f"{transport.describe()}, {method}: the --timeout ran out")
        params = _list_params(session, cursor)
        reply = transport.request(method, params, min(limits.request_timeout, left))
        index = len(listing.pages)
        if not reply.ok:
            if index == 0:
                listing.status = "absent" if not listing.advertised else "error"
                listing.answer = reply.error
                if listing.advertised:
                    listing.findings.append(
                        Finding(
                            "CA530",
                            Severity.ERROR,
                            f"{method} failed although advertised: {reply.describe_error()}",
                            kind=name,
                        )
                    )
                return listing
            listing.status = "error"
            listing.answer = reply.error
            listing.findings.append(
                Finding(
                    "CA531",
                    Severity.ERROR,
                    f"{method} page {index + 1} failed: {reply.describe_error()}",
                    kind=name,
                    page=index,
                )
            )
            return listing
        page = _page(name, reply, index, listing)
        listing.pages.append(page)
        for pos, item in enumerate(page.items):
            ident = identity(name, item)
            if ident is None:
                continue
            if ident in first_page and first_page[ident] != index:
                listing.findings.append(
                    Finding(
                        "CA534",
                        Severity.WARNING,
                        f"{IDENTITY[name]} {ident!r} served again on page {index + 1} "
                        f"(first on page {first_page[ident] + 1})",
                        kind=name,
                        identity=ident,
                        page=index,
                        pointer=f"/{name}/{pos}",
                    )
                )
            first_page.setdefault(ident, index)
        nxt = page.fields.get("nextCursor")
        if nxt is None:
            break
        if not isinstance(nxt, str):
            listing.findings.append(
                Finding(
                    "CA532",
                    Severity.ERROR,
                    f"nextCursor is not a string: {nxt!r}",
                    kind=name,
                    page=index,
                    pointer="/nextCursor",
                )
            )
            break
        if nxt == "" and session.era == "legacy":
            listing.findings.append(
                Finding(
                    "CA535",
                    Severity.WARNING,
                    "nextCursor is the empty string in a legacy session; clients disagree "
                    "on whether it ends the list (2026-07-28 says it does not); stopped",
                    kind=name,
                    page=index,
                    pointer="/nextCursor",
                )
            )
            listing.status = "partial"
            break
        if nxt in cursors:
            listing.findings.append(
                Finding(
                    "CA533",
                    Severity.ERROR,
                    f"nextCursor {dump_string(nxt)} repeats an earlier cursor "
                    "(a pagination loop); stopped following it",
                    kind=name,
                    page=index,
                    pointer="/nextCursor",
                )
            )
            listing.status = "partial"
            break
        cursors.add(nxt)
        cursor = nxt
    if not listing.advertised:
        listing.findings.append(
            Finding(
                "CA536",
                Severity.INFO,
                f"{method} answered although capability {CAPABILITY_OF[name]!r} is not advertised",
                kind=name,
            )
        )
    return listing


def _list_params(session: Session, cursor: str | None) -> dict[str, Any] | None:
    params: dict[str, Any] = {}
    if session.era == "modern":
        params["_meta"] = session.meta()
    if cursor is not None:
        params["cursor"] = cursor
    return params or None


def _page(name: str, reply: Reply, index: int, listing: Listing) -> Page:
    result = reply.result
    if not isinstance(result, dict):
        listing.findings.append(
            Finding(
                "CA537",
                Severity.ERROR,
                f"{METHODS[name]} result is not an object",
                kind=name,
                page=index,
            )
        )
        return Page(reply.result_text, {}, [])
    items = result.get(name)
    fields = {k: v for k, v in result.items() if k != name}
    if not isinstance(items, list):
        listing.findings.append(
            Finding(
                "CA538",
                Severity.ERROR,
                f"{METHODS[name]} result has no {name!r} array",
                kind=name,
                page=index,
                pointer=f"/{name}",
            )
        )
        items = []
    found = [*anomalies(result, reply.invalid_utf8), *unsafe_integers(result)]
    listing.findings.extend(anomaly_findings(name, found, items, index))
    return Page(reply.result_text, fields, list(items))
