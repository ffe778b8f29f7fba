"""Peer of `catalogaudit hash`: per item of every listing, SHA-256 of its RFC 8785 bytes and of
its compact JSON, as `LISTING CANONICAL SERVED` lines.

Integers beyond 2^53-1 are read as the doubles IEEE 754 readers see (I-JSON, RFC 7493 2.2), as
catalogaudit's canonical hash reads them: rfc8785 refuses them as Python ints."""

import hashlib
import json
import sys

import rfc8785

LIMIT = 2**53 - 1


def number(text: str) -> int | float:
    value = int(text)
    return value if -LIMIT <= value <= LIMIT else float(text)


for path in sys.argv[1:]:
    with open(path, "rb") as fh:
        doc = json.load(fh, parse_int=number)
    for key in ("tools", "prompts", "resources", "resourceTemplates"):
        for item in doc.get(key, ()):
            canonical = hashlib.sha256(rfc8785.dumps(item)).hexdigest()
            served = hashlib.sha256(json.dumps(item, separators=(",", ":")).encode()).hexdigest()
            print(key, canonical, served)
