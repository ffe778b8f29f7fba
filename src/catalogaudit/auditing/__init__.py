"""The audit engine: run the spec rules and the profiles over one catalog and collect findings.

- `engine`: `audit(catalog, options) -> Report`;
- `selection`: `--select`/`--ignore`; `baseline`: accepted fingerprints; `matrix`: the
  `--matrix` rows.
"""

from __future__ import annotations

from catalogaudit._faces import lazy

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.auditing.baseline import read_baseline, stale_findings, write_baseline
    from catalogaudit.auditing.contract import WORDS, Contract, check
    from catalogaudit.auditing.engine import AuditOptions, audit
    from catalogaudit.auditing.fleet import Client as FleetClient
    from catalogaudit.auditing.fleet import Member as FleetMember
    from catalogaudit.auditing.fleet import client as fleet_client
    from catalogaudit.auditing.fleet import findings as fleet_findings
    from catalogaudit.auditing.fleet import tools_of as fleet_tools
    from catalogaudit.auditing.matrix import matrix as profile_matrix
    from catalogaudit.auditing.selection import checked_selectors, selected

#: What other packages use, by the module that defines it (`catalogaudit._faces.lazy`).
__getattr__ = lazy(
    globals(),
    {
        "baseline": "read_baseline stale_findings write_baseline",
        "contract": "Contract WORDS check",
        "engine": "AuditOptions audit",
        "fleet": (
            "FleetClient=Client FleetMember=Member fleet_client=client fleet_findings=findings "
            "fleet_tools=tools_of"
        ),
        "matrix": "profile_matrix=matrix",
        "selection": "checked_selectors selected",
    },
)
