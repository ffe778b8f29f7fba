"""Regenerate `src/catalogaudit/rules/examples.json`: one failing and one passing example per
rule for `catalogaudit rule ID`, taken from the rule's own fixtures (`fixtures/rules/<ID>/`;
`fixtures/rule-examples/<ID>/` for the wire findings the intake writes, which have none).

The package cannot read `fixtures/` at run time (it is not installed), so the smallest case
of each side is copied in as data. `tests/rules/test_rule_examples.py` checks the file is
what this script writes and that every failing example fails its rule and every passing one
passes it, by running the audit engine on them.

    python scripts/rule_examples.py          # rewrite the file
    python scripts/rule_examples.py --check  # exit 1 when it is stale
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures" / "rules"
#: Examples of rules that have no `fixtures/rules` case (wire findings the intake writes).
EXTRA = ROOT / "fixtures" / "rule-examples"
TARGET = ROOT / "src" / "catalogaudit" / "rules" / "examples.json"


def _case(side: Path, default_revision: str | None) -> dict[str, Any] | None:
    """The smallest case of one side (`fail` or `pass`), with its `_config.json` entry."""
    files = [
        p
        for p in side.glob("*")
        if p.suffix in (".json", ".jsonl")
        and not p.name.endswith(".expected.json")
        and not p.name.startswith("_")
    ]
    if not files:
        return None
    path = min(files, key=lambda p: (p.stat().st_size, p.name))
    config_file = side / "_config.json"
    config: dict[str, Any] = {}
    if config_file.exists():
        raw = json.loads(config_file.read_text())
        # Profile rules configure each case; spec rules the whole side (`revision`).
        config = raw["cases"].get(path.stem, {}) if "cases" in raw else raw
    return {
        "file": path.relative_to(ROOT).as_posix(),
        "format": path.suffix.lstrip("."),
        "text": path.read_text(encoding="utf-8"),
        "profile": config.get("profile"),
        "revision": config.get("revision") or default_revision,
        "settings": config.get("settings", {}),
        "serverName": config.get("server_name"),
        "gatewayName": config.get("gateway_name"),
    }


def build() -> dict[str, Any]:
    """Every rule directory's examples, by rule id."""
    out: dict[str, Any] = {}
    for rule_dir in sorted(p for p in FIXTURES.iterdir() if p.is_dir()):
        # Spec fixtures without a config are read as 2025-11-25 (tests/rules/test_spec_rules.py).
        default = "2025-11-25" if rule_dir.name.startswith("CA") else None
        out[rule_dir.name] = {
            "failing": _case(rule_dir / "fail", default),
            "passing": _case(rule_dir / "pass", default),
        }
    for rule_dir in sorted(p for p in EXTRA.iterdir() if p.is_dir()):
        assert rule_dir.name not in out, f"{rule_dir.name} has fixtures/rules cases already"
        out[rule_dir.name] = {
            "failing": _case(rule_dir / "fail", None),
            "passing": _case(rule_dir / "pass", None),
        }
    return dict(sorted(out.items()))


def written() -> str:
    """The file's exact text."""
    return json.dumps(build(), indent=1, sort_keys=True, ensure_ascii=True) + "\n"


def main(argv: list[str]) -> int:
    text = written()
    if "--check" in argv:
        same = TARGET.exists() and TARGET.read_text(encoding="utf-8") == text
        if not same:
            print(f"{TARGET.relative_to(ROOT)} is stale: run scripts/rule_examples.py")
        return 0 if same else 1
    TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
