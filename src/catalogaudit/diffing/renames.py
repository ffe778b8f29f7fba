"""Which removed item and which added item are one item renamed (`diff`, CA802 and CA803).

A rename breaks callers like a removal, but it is one change, named as such: pairing needs
evidence. Either the names are the same but for case and separators (`tavily-search` ->
`tavily_search`), or the item is otherwise alike: the same input schema or prompt arguments,
the same template shape, or a description at least 80% alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import Any

from catalogaudit.diffing.sides import ItemDelta
from catalogaudit.model import canonical, identity

_VARIABLE = re.compile(r"\{[+#./;?&=,!@|]?([^}]*)\}")


def template_variables(template: str) -> set[str]:
    """RFC 6570 variable names of a URI template (operators and modifiers stripped)."""
    names: set[str] = set()
    for expr in _VARIABLE.findall(template):
        names.update(re.sub(r"(:\d+|\*)$", "", v.strip()) for v in expr.split(","))
    return names - {""}


def _skeleton(template: str) -> str:
    return _VARIABLE.sub("{}", template)


def _similarity(name: str, old: Any, new: Any) -> float:
    if not isinstance(old, dict) or not isinstance(new, dict):
        return 0.0
    if name == "resourceTemplates":
        ot, nt = str(old.get("uriTemplate", "")), str(new.get("uriTemplate", ""))
        if _skeleton(ot) == _skeleton(nt) or old.get("name") == new.get("name"):
            return 1.0
    if name == "resources" and old.get("name") == new.get("name"):
        return 0.95
    key = {"tools": "inputSchema", "prompts": "arguments"}.get(name)
    if key and key in old and _nontrivial(old[key]):
        if canonical(old[key]) == canonical(new.get(key)):
            return 1.0
    od, nd = old.get("description"), new.get("description")
    if isinstance(od, str) and isinstance(nd, str) and min(len(od), len(nd)) >= 10:
        matcher = SequenceMatcher(None, od[:2000], nd[:2000], autojunk=False)
        if matcher.quick_ratio() >= 0.8:
            return matcher.ratio()
    return 0.0


def _nontrivial(value: Any) -> bool:
    if isinstance(value, dict):
        return bool(value.get("properties"))
    return isinstance(value, list) and bool(value)


_SEPARATORS = re.compile(r"[-_.\s]+")


def spelled_alike(old: str | None, new: str | None) -> bool:
    """The same name but for case and separators (`tavily-search`, `tavily_search`,
    `TavilySearch`): what a rename to a naming convention looks like."""
    if old is None or new is None or old == new:
        return False
    return _SEPARATORS.sub("", old).casefold() == _SEPARATORS.sub("", new).casefold()


def pair_renames(
    name: str, removed: Sequence[ItemDelta], added: Sequence[ItemDelta]
) -> list[tuple[ItemDelta, ItemDelta, str]]:
    """Pair removals with additions: a name spelled alike first, then a similar item (same
    schema, arguments or template shape, or a description at least 80% alike), best first;
    each item pairs at most once."""
    if not removed or not added:
        return []
    scored: list[tuple[float, int, int]] = []
    if name in ("tools", "prompts"):
        by_spelling: dict[str, list[int]] = {}
        for j, a in enumerate(added):
            if (ident := a.key[0]) is not None:
                by_spelling.setdefault(_SEPARATORS.sub("", ident).casefold(), []).append(j)
        for i, r in enumerate(removed):
            key = _SEPARATORS.sub("", r.key[0]).casefold() if r.key[0] is not None else None
            scored.extend((2.0, i, j) for j in by_spelling.get(key or "", ()) if key)
    if len(removed) * len(added) <= 10_000:
        scored += [
            (score, i, j)
            for i, r in enumerate(removed)
            for j, a in enumerate(added)
            if (score := _similarity(name, r.old, a.new)) >= 0.8
        ]
    used_r: set[int] = set()
    used_a: set[int] = set()
    out: list[tuple[ItemDelta, ItemDelta, str]] = []
    for _, i, j in sorted(scored, key=lambda s: (-s[0], s[1], s[2])):
        if i in used_r or j in used_a:
            continue
        used_r.add(i)
        used_a.add(j)
        rule = "CA802"
        if name == "resourceTemplates":
            old_t, new_t = (identity(name, d) or "" for d in (removed[i].old, added[j].new))
            if template_variables(old_t) != template_variables(new_t):
                rule = "CA803"
        out.append((removed[i], added[j], rule))
    return out
