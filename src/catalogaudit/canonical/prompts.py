"""What one client sends the model for a catalog's tools, as bytes: its prompt hash and tokens.

A prompt cache keys on the bytes of the request's prefix, and each client writes its own
bytes (its names, its fields, its schema rewrites, its order, its wrapping), so a catalog
has one prompt per client. The objects and their layout are predicted elsewhere
(`verify.client_prompt`, from the profiles' `model_view` data); here they are written as the
client's JSON encoder writes them (`JSON.stringify`: keys in the order built, RFC 8785 string
escapes and ECMAScript numbers), hashed and counted. Tools a client defers (tool search)
are not in the request's tools until loaded, so they are outside the cached prefix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from catalogaudit.canonical import jcs
from catalogaudit.canonical.tokens import count
from catalogaudit.model import DEFERRED, INLINE, dumps, jcs_number

#: A lone surrogate as `surrogatepass` writes it (U+D800-U+DFFF: ED A0-BF xx): bytes UTF-8
#: never holds.
_LONE_SURROGATE = re.compile(rb"\xed[\xa0-\xbf]")


def sent_text(view: Any) -> str:
    """`view` as a client's JSON encoder writes it: compact, keys in order, ES numbers."""
    return dumps(view, sort_keys=False, indent=None, number=jcs_number)


@dataclass(frozen=True)
class SentTool:
    """One served tool as a client offers it: its identity (served name), the name the model
    sees, how it is offered (inline, deferred, not-offered) and the object's text as sent."""

    identity: str
    offered: str
    name: str | None = None
    text: str | None = None
    because: str = ""

    @property
    def sha256(self) -> str | None:
        """`sha256:` of the object's bytes as sent."""
        return None if self.text is None else jcs.sha256(self.text.encode("utf-8", "replace"))


@dataclass(frozen=True)
class ClientPrompt:
    """A catalog's tools as one client sends them in one mode, in the order it sends them."""

    client: str
    version: str | None
    mode: str
    tools: tuple[SentTool, ...]
    #: Why there is no view (no `model_view` data for the client), else "".
    missing: str = ""
    #: What the reader should know about the mode (a client that defers by default), or "".
    note: str = ""
    #: The text sent before and after each inline object (opencode's `{"type": "function",
    #: "function": ...}`), and before and after the inline objects together, joined by commas
    #: (Codex's namespace entry); empty when sent bare.
    item: tuple[str, str] = ("", "")
    group: tuple[str, str] = ("", "")
    #: What of the request `text` covers (the profile's `request.covers`), or "".
    covers: str = ""

    @property
    def inline(self) -> list[SentTool]:
        """The tools in the request's tools, in sent order: the cached prefix."""
        return [t for t in self.tools if t.offered == INLINE and t.text is not None]

    @property
    def text(self) -> str:
        """The MCP part of the request's tools array as the client lays it out: its elements
        (each inline object, wrapped as sent; or the server's one entry holding them), in sent
        order, comma-joined in brackets; `[]` when none is inline."""
        return "".join(self._pieces())

    def utf8(self, errors: str = "surrogatepass") -> bytes:
        """`text` as UTF-8 (`errors` for a lone surrogate), written piece by piece: a `str`
        holding one astral character takes 4 bytes a character."""
        return b"".join(piece.encode("utf-8", errors) for piece in self._pieces())

    def _pieces(self) -> list[str]:
        inline = self.inline
        if not inline:
            return ["[]"]
        before, after = self.item
        pieces = ["[", self.group[0]]
        for t in inline:
            pieces += (before, t.text or "", after, ",")
        pieces[-1] = self.group[1] + "]"
        return pieces

    @property
    def sha256(self) -> str:
        """The client's prompt hash: `sha256:` of `text` (a lone surrogate as `?`)."""
        return jcs.sha256(self.utf8("replace"))

    def hashed_utf8(self) -> tuple[bytes, str]:
        """`utf8()` and `sha256`, the text written once unless it holds a lone surrogate
        (without one, the hash is of the same bytes)."""
        data = self.utf8()
        return data, self.sha256 if _LONE_SURROGATE.search(data) else jcs.sha256(data)

    def tokens(self) -> int:
        """o200k tokens of `text` (the inline tools only)."""
        return count(self.text) if self.inline else 0

    def as_dict(self) -> dict[str, Any]:
        """Plain form for JSON reports: the prompt hash, tokens, and each tool's."""
        return {
            "client": self.client,
            "version": self.version,
            "mode": self.mode,
            "prompt": self.sha256,
            "tokens": self.tokens(),
            "tokenizer": "o200k_base",
            "inline": len(self.inline),
            "deferred": sum(t.offered == DEFERRED for t in self.tools),  # loaded on demand
            **({"note": self.note} if self.note else {}),
            **({"covers": self.covers} if self.covers else {}),
            "tools": [
                {
                    "identity": t.identity,
                    "name": t.name,
                    "offered": t.offered,
                    "prompt": t.sha256,
                    "tokens": count(t.text) if t.text is not None else 0,
                    **({"because": t.because} if t.because else {}),
                }
                for t in self.tools
            ],
        }
