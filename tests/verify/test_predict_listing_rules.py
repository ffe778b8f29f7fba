"""`verify.predict` runs only the profile rules whose errors can cost a listing (issue 31: the
bill predicts every client's drops on both inputs of `diff`). Its verdicts must be those of
the profile's whole audit, on every lattice shape (one defect each, of every kind a rule
reads) and every fixture catalog, for every profile a driver verifies."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT

from catalogaudit import intake
from catalogaudit.model import DRIVER_IDS, Catalog
from catalogaudit.verify import predict as module
from catalogaudit.verify.base import Target
from catalogaudit.verify.lattice import shapes
from catalogaudit.verify.observatory import target

CATALOGS = sorted((ROOT / "fixtures" / "real-servers").glob("*.snapshot.json")) + sorted(
    (ROOT / "fixtures" / "captures").glob("*.snapshot.json")
)


def _targets() -> list[Target]:
    files = [Target(p.name, Path(""), Catalog(intake.read_catalog(str(p)).doc)) for p in CATALOGS]
    return [target(s, None) for s in shapes()] + files


@pytest.mark.parametrize("profile", sorted(DRIVER_IDS))
def test_predictions_equal_those_of_the_whole_audit(
    profile: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    targets = _targets()
    fewer = [module.predict(t, profile) for t in targets]
    assert module._listing_rules(profile) is not None
    monkeypatch.setattr(module, "_listing_rules", lambda _: None)  # every rule runs
    whole = [module.predict(t, profile) for t in targets]
    assert fewer == whole
    assert any(o.verdict != "kept" for got in whole for o in got), profile
