"""What changed between two catalogs, and whether captures of one server agree.

- `sides`: a snapshot document as one or more comparable sides (one per `--runs` run);
- `paths`: which values of two matched items differ in meaning;
- `items`: `diff(old, new)`, the classified changes (breaking ... cosmetic, unknown, renames);
- `rules` and `schema`: the per-field and per-JSON-Schema change rules (CA8xx);
- `stability`: `report(sides)`, stable / bytes-only / content per listing and item;
- `bill`: what re-sent prompt tokens cost per provider, from dated price data.
"""

from __future__ import annotations

from catalogaudit._faces import lazy

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.diffing.accept import Accepted, entries_for
    from catalogaudit.diffing.accept import apply as apply_accepted
    from catalogaudit.diffing.accept import parse as parse_accepted
    from catalogaudit.diffing.bill import check_prices, default_prices
    from catalogaudit.diffing.items import Change, DiffReport, DiffResult, diff
    from catalogaudit.diffing.modes import read_allowlist
    from catalogaudit.diffing.rules import RULES
    from catalogaudit.diffing.sides import Side, sides_of
    from catalogaudit.diffing.stability import model_visible, prompt_bill
    from catalogaudit.diffing.stability import report as stability_report

#: What other packages use, by the module that defines it (`catalogaudit._faces.lazy`).
__getattr__ = lazy(
    globals(),
    {
        "accept": "Accepted apply_accepted=apply entries_for parse_accepted=parse",
        "bill": "check_prices default_prices",
        "items": "Change DiffReport DiffResult diff",
        "modes": "read_allowlist",
        "rules": "RULES",
        "sides": "Side sides_of",
        "stability": "model_visible prompt_bill stability_report=report",
    },
)


__all__ = [
    "Accepted",
    "Change",
    "DiffReport",
    "DiffResult",
    "RULES",
    "Side",
    "apply_accepted",
    "check_prices",
    "default_prices",
    "diff",
    "entries_for",
    "model_visible",
    "parse_accepted",
    "prompt_bill",
    "read_allowlist",
    "sides_of",
    "stability_report",
]
