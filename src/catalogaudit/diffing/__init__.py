"""What changed between two catalogs, and whether captures of one server agree.

- `sides`: a snapshot document as one or more comparable sides (one per `--runs` run);
- `items`: `diff(old, new)`, the classified changes (breaking ... cosmetic, unknown, renames);
- `rules` and `schema`: the per-field and per-JSON-Schema change rules (CA8xx);
- `stability`: `report(sides)`, stable / bytes-only / content per listing and item.
"""

from __future__ import annotations

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.diffing.items import Change, DiffResult, diff
    from catalogaudit.diffing.modes import read_allowlist
    from catalogaudit.diffing.rules import RULES
    from catalogaudit.diffing.sides import sides_of
    from catalogaudit.diffing.stability import report as stability_report

#: What other packages use, by the module that defines it (`face=name` where the names
#: differ), loaded on first use (PEP 562): importing the face costs nothing more.
_FROM = {
    "items": "Change DiffResult diff",
    "modes": "read_allowlist",
    "rules": "RULES",
    "sides": "sides_of",
    "stability": "stability_report=report",
}


def __getattr__(name: str) -> object:
    for module, names in _FROM.items():
        for entry in names.split():
            face, _, attr = entry.partition("=")
            if face == name:
                from importlib import import_module

                value = getattr(import_module(f"{__name__}.{module}"), attr or name)
                globals()[name] = value
                return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Change",
    "DiffResult",
    "RULES",
    "diff",
    "read_allowlist",
    "sides_of",
    "stability_report",
]
