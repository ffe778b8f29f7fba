"""Peer of `catalogaudit hash`: per tool, SHA-256 of its RFC 8785 bytes and of its compact JSON."""

import hashlib
import json
import sys

import rfc8785

for path in sys.argv[1:]:
    with open(path, "rb") as fh:
        doc = json.load(fh)
    for tool in doc["tools"]:
        canonical = hashlib.sha256(rfc8785.dumps(tool)).hexdigest()
        served = hashlib.sha256(json.dumps(tool, separators=(",", ":")).encode()).hexdigest()
        print(canonical, served)
