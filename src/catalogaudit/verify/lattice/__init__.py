"""The lattice: one-defect catalogs over every field of every item kind, in both eras.

Each shape is a valid base catalog (two items per listing: `ok`, kept untouched, and
`subject`, the item under test) with exactly one defect at one JSON pointer, so what a client
does with it is the client's verdict on that one defect alone. The list results are raw JSON
text, so number lexemes (`1.0`, `1e0`) reach a client exactly as written. The generator is
deterministic: the same shapes, ids and bytes on every run, which is what lets observations of
different client versions and dates be compared shape by shape.
"""

from __future__ import annotations

from catalogaudit.verify.lattice.base import (
    ERAS,
    LISTING_KEYS,
    Raw,
    Shape,
    base_pages,
    dumps,
    jsonl,
)
from catalogaudit.verify.lattice.shapes import shapes

__all__ = ["ERAS", "LISTING_KEYS", "Raw", "Shape", "base_pages", "dumps", "jsonl", "shapes"]
