"""Peer of `catalogaudit canonicalize --jcs`: the whole document's RFC 8785 bytes to stdout."""

import json
import sys

import rfc8785

with open(sys.argv[1], "rb") as fh:
    sys.stdout.buffer.write(rfc8785.dumps(json.load(fh)))
