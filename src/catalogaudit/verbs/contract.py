"""The contract options of `snapshot`, `audit` and `diff` (`--expect-tool NAME`,
`--forbid-tool GLOB`, `--min-tools N`, and the same for prompts, resources and templates), and
their configuration keys of the same names: one place that turns them into a `Contract`.

Per option the command line wins over the configuration, as for every other key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from catalogaudit.auditing import WORDS, Contract, check
from catalogaudit.errors import UsageError
from catalogaudit.model import Finding

if TYPE_CHECKING:  # NOTE: `resolve` runs before a live snapshot's server starts
    from catalogaudit.model import Catalog

#: Every contract key (option without `--`, configuration key), with the listing it is about.
KEYS: dict[str, str] = {
    f"{verb}-{word}{'s' if verb == 'min' else ''}": listing
    for listing, word in WORDS.items()
    for verb in ("expect", "forbid", "min")
}


def from_parameters(params: Mapping[str, Any]) -> dict[str, Any]:
    """The contract options among a command's parameters (`expect_tool`, `min_tools`, ...),
    keyed like `KEYS` and as `resolve` takes them (lists as tuples, unset ones left out)."""
    out: dict[str, Any] = {}
    for key in KEYS:
        value = params.get(key.replace("-", "_"))
        if value is not None:
            out[key] = tuple(value) if isinstance(value, list) else value
    return out


def resolve(given: Mapping[str, Any], conf: Mapping[str, Any]) -> Contract:
    """The contract of one run: each key from the command line (`given`, keyed like `KEYS`),
    else from the configuration; a usage error for a negative minimum or an empty name."""
    expect: dict[str, tuple[str, ...]] = {}
    forbid: dict[str, tuple[str, ...]] = {}
    minimum: dict[str, int] = {}
    origin: dict[str, str] = {}
    for key, listing in KEYS.items():
        value = given.get(key)
        origin[key] = "--"
        if value in (None, (), []):
            value = conf.get(key)
            origin[key] = "config "
        if value in (None, (), []):
            continue
        option = f"--{key}" if origin[key] == "--" else f"config {key}"
        if key.startswith("min-"):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise UsageError(f"{option} must be a whole number >= 0, not {value!r}")
            minimum[listing] = value
            continue
        names = (value,) if isinstance(value, str) else tuple(str(v) for v in value)
        if any(not n.strip() for n in names):
            raise UsageError(f"{option} needs a non-empty name")
        (expect if key.startswith("expect-") else forbid)[listing] = names
    return Contract(expect, forbid, minimum, origin)


def findings(catalog: Catalog, contract: Contract) -> list[Finding]:
    """The failed assertions on one catalog (for `snapshot`, which has no audit report)."""
    return check(catalog, contract) if contract else []
