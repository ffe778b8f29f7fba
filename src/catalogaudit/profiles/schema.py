"""The profile files' schema checks: `profiles/profile.schema.json` and each check's params
against the check vocabulary's own schema (`rules.PARAMS`), asked of jsonschema-rs first and
worded by python-jsonschema where it finds a problem."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from catalogaudit.model import NOT_PLAIN, plain, validator


def _schema() -> dict[str, Any]:
    text = resources.files("catalogaudit.profiles").joinpath("profile.schema.json").read_text()
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def schema_problems(doc: Any) -> list[str]:
    """Violations of the profile schema and of the check vocabulary's param schemas, as
    python-jsonschema words them (`worded_problems`); none, without asking it, when jsonschema-rs
    finds none (`surely_valid`): every command that loads the profiles asks this of each file."""
    return [] if surely_valid(doc) else worded_problems(doc)


def surely_valid(doc: Any) -> bool:
    """Whether jsonschema-rs finds a profile file and each check's params valid, with the
    formats python-jsonschema checks asserted: then python-jsonschema does too
    (`model.validator`)."""
    from catalogaudit.rules import PARAMS

    copy = plain(doc)
    if copy is NOT_PLAIN or not _rs(None).is_valid(copy):
        return False
    clauses = [c for r in copy["rules"] for c in r["checks"]]
    return all(
        isinstance(c.get("type"), str)
        and c["type"] in PARAMS
        and _rs(c["type"]).is_valid(c.get("params", {}))
        for c in clauses
    )


def worded_problems(doc: Any) -> list[str]:
    """`schema_problems` as python-jsonschema finds and words them."""
    import jsonschema

    from catalogaudit.rules import PARAMS

    cls = jsonschema.Draft202012Validator
    found = [
        "/" + "/".join(str(p) for p in e.absolute_path) + f": {e.message}"
        for e in cls(_schema(), format_checker=cls.FORMAT_CHECKER).iter_errors(doc)
    ]
    rules = doc.get("rules") if isinstance(doc, dict) else None
    for r, rule in enumerate(rules if isinstance(rules, list) else []):
        checks = rule.get("checks") if isinstance(rule, dict) else None
        for c, clause in enumerate(checks if isinstance(checks, list) else []):
            kind = clause.get("type") if isinstance(clause, dict) else None
            where = f"/rules/{r}/checks/{c}"
            if not isinstance(kind, str) or kind not in PARAMS:
                found.append(f"{where}/type: unknown check type {kind!r}")
                continue
            validator = cls(PARAMS[kind], format_checker=cls.FORMAT_CHECKER)
            for e in validator.iter_errors(clause.get("params", {})):
                path = "/".join(str(p) for p in e.absolute_path)
                found.append(f"{where}/params/{path}: {e.message}")
    return found


@cache
def _rs(kind: str | None) -> Any:
    """jsonschema-rs's validator of the profile schema (`kind` None) or of a check's params,
    with the formats python-jsonschema's Draft 2020-12 checker checks asserted."""
    import jsonschema

    from catalogaudit.rules import PARAMS

    formats = jsonschema.Draft202012Validator.FORMAT_CHECKER
    return validator(_schema() if kind is None else PARAMS[kind], formats)
