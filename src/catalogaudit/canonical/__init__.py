"""Canonical forms and the three hashes.

- `jcs`: RFC 8785 bytes (orjson where it is exact), and bytes read at C speed for `quick`
  (`hash` of a list result) and `strict` (`canonicalize --jcs`);
- `hashes`: served, prompt and canonical hashes per item, listing and catalog;
- `tokens`: o200k_base token counts, offline.
"""

from __future__ import annotations

from catalogaudit._faces import lazy

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.canonical.hashes import (
        ItemHashes,
        catalog_hash,
        item_hashes,
        listing_hashes,
        page_fields_hash,
        prompt_projection,
    )
    from catalogaudit.canonical.jcs import gc_paused, jcs_bytes, jcs_hash, sha256
    from catalogaudit.canonical.prompts import ClientPrompt, SentTool, sent_text
    from catalogaudit.canonical.quick import hash_report as quick_hash_report
    from catalogaudit.canonical.strict import write_jcs
    from catalogaudit.canonical.tokens import count as count_tokens
    from catalogaudit.canonical.tokens import label as token_label
    from catalogaudit.canonical.tokens import resent as tokens_resent

#: What other packages use, by the module that defines it (`catalogaudit._faces.lazy`).
__getattr__ = lazy(
    globals(),
    {
        "hashes": (
            "ItemHashes catalog_hash item_hashes listing_hashes page_fields_hash prompt_projection"
        ),
        "jcs": "gc_paused jcs_bytes jcs_hash sha256",
        "prompts": "ClientPrompt SentTool sent_text",
        "quick": "quick_hash_report=hash_report",
        "strict": "write_jcs",
        "tokens": "count_tokens=count token_label=label tokens_resent=resent",
    },
)
