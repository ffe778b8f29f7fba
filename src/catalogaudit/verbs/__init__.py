"""The use cases: one module per verb, options in, exit code out. Only here are configuration
and the environment read and stdout, stderr and files written.

- `output`: the one writer (`-o` atomically, or stdout) and stderr lines;
- `live`: the one live capture (`snapshot`, `audit --live`, `diff --live`);
- `config`: `[tool.catalogaudit]` / catalogaudit.toml;
- `snapshot`, `audit`, `canonicalize` (and `hash`), `diff` (and `stability`), `rewrite`,
  `profiles`, `serve`, `proxy`, `verify`: the verbs.
"""

from __future__ import annotations

from catalogaudit._faces import lazy

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.verbs.audit import AuditRunOptions, rules_listing
    from catalogaudit.verbs.audit import run as run_audit
    from catalogaudit.verbs.bill import bill_of
    from catalogaudit.verbs.canonicalize import options as canonicalize_options
    from catalogaudit.verbs.canonicalize import run as run_canonicalize
    from catalogaudit.verbs.canonicalize import run_hash
    from catalogaudit.verbs.ci import CiOptions, run_ci
    from catalogaudit.verbs.complete import client_ids, profile_ids, rule_ids, selectors
    from catalogaudit.verbs.contract import from_parameters
    from catalogaudit.verbs.diff import (
        DiffOptions,
        StabilityOptions,
        pointed_at,
        run_diff,
        run_stability,
    )
    from catalogaudit.verbs.fleet import snapshot_fleet as run_fleet_snapshot
    from catalogaudit.verbs.live import SnapshotOptions, capture, limits_of, target_of
    from catalogaudit.verbs.profiles import run as run_profiles
    from catalogaudit.verbs.proxy import ProxyOptions
    from catalogaudit.verbs.proxy import run as run_proxy
    from catalogaudit.verbs.repository import repository as git_repository
    from catalogaudit.verbs.rewrite import RewriteOptions
    from catalogaudit.verbs.rewrite import run as run_rewrite
    from catalogaudit.verbs.rule import run as run_rule
    from catalogaudit.verbs.serve import ServeOptions
    from catalogaudit.verbs.serve import run as run_serve
    from catalogaudit.verbs.snapshot import snapshot as run_snapshot
    from catalogaudit.verbs.verify import ModelOptions
    from catalogaudit.verbs.verify import run as run_verify

#: What other packages use, by the module that defines it (`catalogaudit._faces.lazy`).
__getattr__ = lazy(
    globals(),
    {
        "audit": "AuditRunOptions rules_listing run_audit=run",
        "bill": "bill_of",
        "canonicalize": "canonicalize_options=options run_canonicalize=run run_hash",
        "ci": "CiOptions run_ci",
        "complete": "client_ids profile_ids rule_ids selectors",
        "contract": "from_parameters",
        "diff": "DiffOptions StabilityOptions run_diff run_stability pointed_at",
        "fleet": "run_fleet_snapshot=snapshot_fleet",
        "live": "SnapshotOptions capture limits_of target_of",
        "profiles": "run_profiles=run",
        "proxy": "ProxyOptions run_proxy=run",
        "repository": "git_repository=repository",
        "rewrite": "RewriteOptions run_rewrite=run",
        "rule": "run_rule=run",
        "serve": "ServeOptions run_serve=run",
        "snapshot": "run_snapshot=snapshot",
        "verify": "ModelOptions run_verify=run",
    },
)


__all__ = [
    "AuditRunOptions",
    "CiOptions",
    "DiffOptions",
    "ModelOptions",
    "ProxyOptions",
    "RewriteOptions",
    "ServeOptions",
    "SnapshotOptions",
    "StabilityOptions",
    "bill_of",
    "canonicalize_options",
    "capture",
    "client_ids",
    "from_parameters",
    "git_repository",
    "limits_of",
    "pointed_at",
    "profile_ids",
    "rule_ids",
    "rules_listing",
    "run_audit",
    "run_canonicalize",
    "run_ci",
    "run_diff",
    "run_fleet_snapshot",
    "run_hash",
    "run_profiles",
    "run_proxy",
    "run_rewrite",
    "run_rule",
    "run_serve",
    "run_snapshot",
    "run_stability",
    "run_verify",
    "selectors",
    "target_of",
]
