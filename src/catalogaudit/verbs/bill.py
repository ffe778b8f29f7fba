"""`--prices FILE` and the prompts a bill is priced on, for `stability`, `diff` and `snapshot
--runs`: the file read and checked here (one `error:` line when it is not price data), each
input's client prompts predicted by `verify.prompts_of`, the bill made by `diffing`."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from catalogaudit.errors import InputError


def load_prices(path: str | None) -> tuple[Mapping[str, Any], str] | None:
    """The price data of `--prices FILE` and its name, or None (the built-in data)."""
    if path is None:
        return None
    from catalogaudit.diffing import check_prices

    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"--prices {path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise InputError(f"--prices {path}: not UTF-8 text") from None
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise InputError(f"--prices {path}: not JSON ({exc})") from None
    return check_prices(doc, f"--prices {path}"), path


def bill_of(
    sides: Sequence[Any], prices: str | None, *, changed_only: bool = False
) -> dict[str, Any] | None:
    """`promptCache` of `sides` (the first is the baseline) with the bill; with
    `changed_only`, None when no byte a client forwards can differ (`diff` of equal
    catalogs loads no tokenizer, profile or schema library)."""
    from catalogaudit.diffing import model_visible, prompt_bill

    if changed_only and not any(model_visible(sides[0], s) for s in sides[1:]):
        return None
    from catalogaudit.canonical import gc_paused
    from catalogaudit.verify import client_prompts  # NOTE: loads the profiles and jsonschema

    # NOTE: the wire pages parsed, the prompts written and the profiles' audits make no cycles,
    # and the collector ran over and over for nothing (as `audit` pauses it for the rules)
    with gc_paused():
        return prompt_bill(sides, client_prompts(sides), load_prices(prices))
