"""Profile data: one JSON file per enforcer, loaded, schema-checked and cross-checked once.

The files are the rule database of `compat-rules.md` as data (enforcer, PEP 440 version
ranges, checks, severity, symptom, workaround, sources, confidence, last-verified date). They
are validated against `profiles/profile.schema.json`, each check's params against the check
vocabulary's own schema, and every version specifier is parsed, so a broken file fails loudly
the first time any profile is used, never with a silently wrong verdict.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from catalogaudit.errors import CatalogauditError
from catalogaudit.model import LISTINGS, Severity


class ProfileDataError(CatalogauditError):
    """A profile file that does not match its schema or the check vocabulary (a packaging bug)."""


@dataclass(frozen=True)
class KnownVersion:
    """A version the rules were verified on, and how."""

    version: Version
    basis: str  # measured | code | issue | docs
    date: str
    note: str = ""


@dataclass(frozen=True)
class Setting:
    """An enforcer setting that changes verdicts (e.g. ContextForge `VALIDATION_STRICT`)."""

    name: str
    type: str  # bool | int | string | json-list
    default: Any
    versions: SpecifierSet
    description: str

    def parse(self, raw: str) -> Any:
        """The typed value of `KEY=VALUE`'s VALUE; ValueError with a short reason."""
        if self.type == "bool":
            low = raw.strip().lower()
            if low in ("true", "1", "yes", "on"):
                return True
            if low in ("false", "0", "no", "off"):
                return False
            raise ValueError("expected true or false")
        if self.type == "int":
            return int(raw.strip())
        if self.type == "json-list":
            value = json.loads(raw)
            if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
                raise ValueError("expected a JSON list of non-empty strings")
            return value
        return raw


@dataclass(frozen=True)
class Clause:
    """One check of a rule: a vocabulary type, its params, and when it applies."""

    type: str
    params: Mapping[str, Any]
    versions: SpecifierSet
    #: The range as written in the file (SpecifierSet reorders its parts).
    versions_text: str
    severity: Severity
    effect: str
    bind: Mapping[str, str]
    skip_if: Mapping[str, Any]


@dataclass(frozen=True)
class Rule:
    """One rule of `compat-rules.md` (or a measured fact), owned by one profile."""

    id: str
    name: str
    owner: str  # profile id
    enforcer: str
    summary: str
    versions: str
    range: SpecifierSet
    severity: Severity
    reads: str
    effect: str
    symptom: str
    workaround: str
    sources: tuple[str, ...]
    confidence: str
    last_verified: str
    checks: tuple[Clause, ...]
    #: When the enforcer acts on it: `listing` (tools/list and the other list calls, what a
    #: verify driver observes) or `call` (a tool call or the model request, which none does).
    phase: str = "listing"


@dataclass(frozen=True)
class Include:
    """Another profile's rule that this enforcer also obeys (e.g. Claude Code and the
    Anthropic API's name rule), evaluated at `version` of the owner."""

    rule: Rule
    version: str  # same | newest | a version
    severity: Severity | None
    why: str
    #: Indexes of the rule's checks this enforcer obeys (None: all).
    checks: tuple[int, ...] | None = None


@dataclass(frozen=True)
class ClientMatch:
    """How a session's clientInfo, or its User-Agent, names the enforcer (`proxy` fixes those
    sessions only)."""

    name_prefix: str
    title: str
    versions: SpecifierSet
    source: str
    #: The User-Agent product name, for a request that carries no clientInfo ("": none seen).
    user_agent: str = ""

    def matches(self, name: str, title: str, version: Version | None, agent: str = "") -> bool:
        """Name prefix or title, or the User-Agent product `agent` (case-insensitive), at a
        version in range (an unknown version only where the range is unconditional)."""
        named = bool(self.name_prefix) and name.lower().startswith(self.name_prefix.lower())
        titled = bool(self.title) and title.lower() == self.title.lower()
        agented = bool(self.user_agent and agent) and agent.lower() == self.user_agent.lower()
        return (named or titled or agented) and contains(self.versions, version)


@dataclass(frozen=True)
class Profile:
    """One enforcer's rules."""

    id: str
    enforcer: str
    summary: str
    package: Mapping[str, str] | None
    versions: tuple[KnownVersion, ...]  # oldest first
    reads: tuple[tuple[SpecifierSet, tuple[str, ...]], ...]
    settings: Mapping[str, Setting]
    rules: tuple[Rule, ...]
    includes: tuple[Include, ...]
    clients: tuple[ClientMatch, ...] = ()

    def only(self, ids: frozenset[str]) -> Profile:
        """The profile with only these of its rules, own or included (whole rules)."""
        rules = tuple(r for r in self.rules if r.id in ids)
        return replace(
            self, rules=rules, includes=tuple(i for i in self.includes if i.rule.id in ids)
        )

    @property
    def newest(self) -> KnownVersion | None:
        """The newest version the rules were verified on (None: unversioned)."""
        return self.versions[-1] if self.versions else None

    def listings_read(self, version: Version | None) -> frozenset[str]:
        """The listings the enforcer reads at `version` (all four when not said)."""
        for spec, names in self.reads:
            if version is None or spec.contains(version, prereleases=True):
                return frozenset(names)
        return frozenset(LISTINGS)


def specifier(text: str, where: str) -> SpecifierSet:
    """Parse a PEP 440 specifier set from profile data."""
    try:
        return SpecifierSet(text)
    except InvalidSpecifier:
        raise ProfileDataError(f"{where}: {text!r} is not a PEP 440 specifier set") from None


def contains(spec: SpecifierSet, version: Version | None) -> bool:
    """Whether a range applies; pre-releases count (1.0.0b2 is a real ContextForge release),
    and an unversioned profile only has unconditional ranges."""
    if version is None:
        return not str(spec)
    return spec.contains(version, prereleases=True)


def raw_files() -> dict[str, dict[str, Any]]:
    """Every profile file's parsed JSON, by file name."""
    out: dict[str, dict[str, Any]] = {}
    for entry in sorted(
        resources.files("catalogaudit.profiles").joinpath("data").iterdir(), key=lambda e: e.name
    ):
        if entry.name.endswith(".json"):
            out[entry.name] = json.loads(entry.read_text(encoding="utf-8"))
    return out


@dataclass(frozen=True)
class VerifiedRun:
    """A `catalogaudit verify` run of the real enforcer in which every observation equalled the
    profile's prediction (recorded by scripts/refresh_verification.py, never by hand)."""

    enforcer: str  # the verify driver's client id (`codex`, `context-forge`)
    version: Version
    date: str
    scenarios: int
    observations: int


@cache
def load_verified() -> dict[str, tuple[VerifiedRun, ...]]:
    """Profile id -> its verified runs, oldest version first (`verified/verified.json`)."""
    text = (
        resources.files("catalogaudit.profiles")
        .joinpath("data/verified/verified.json")
        .read_text("utf-8")
    )
    doc = json.loads(text)
    out: dict[str, tuple[VerifiedRun, ...]] = {}
    for pid, runs in doc.get("profiles", {}).items():
        try:
            made = [
                VerifiedRun(
                    str(r["enforcer"]),
                    Version(str(r["version"])),
                    str(r["date"]),
                    int(r["scenarios"]),
                    int(r["observations"]),
                )
                for r in runs
            ]
        except (KeyError, TypeError, ValueError, InvalidVersion) as exc:
            raise ProfileDataError(f"profiles/data/verified/verified.json: {pid}: {exc}") from None
        out[pid] = tuple(sorted(made, key=lambda r: r.version))
    return out


@cache
def load_all() -> dict[str, Profile]:
    """Every profile by id, validated (cached: the data ships with the package)."""
    from catalogaudit.profiles.schema import schema_problems

    docs = raw_files()
    for name, doc in docs.items():
        problems = schema_problems(doc)
        if problems:
            raise ProfileDataError(f"profiles/data/{name}: {problems[0]}")
    owned = {
        rule["id"]: (doc["id"], doc["enforcer"], rule)
        for doc in docs.values()
        for rule in doc["rules"]
    }
    if len(owned) != sum(len(d["rules"]) for d in docs.values()):
        raise ProfileDataError("a rule id is defined in two profile files")
    built = {rid: _rule(*spec) for rid, spec in owned.items()}
    profiles = [_profile(doc, built) for doc in docs.values()]
    return {p.id: p for p in sorted(profiles, key=lambda p: p.id)}


def _rule(owner: str, enforcer: str, raw: Mapping[str, Any]) -> Rule:
    where = f"{owner}/{raw['id']}"
    severity = Severity(raw["severity"])
    clauses = tuple(
        Clause(
            type=c["type"],
            params=c.get("params", {}),
            versions=specifier(c.get("versions", ""), where),
            versions_text=c.get("versions", ""),
            severity=Severity(c.get("severity", severity.value)),
            effect=c.get("effect", raw["effect"]),
            bind=c.get("bind", {}),
            skip_if=c.get("skip_if", {}),
        )
        for c in raw["checks"]
    )
    return Rule(
        id=raw["id"],
        name=raw["name"],
        owner=owner,
        enforcer=enforcer,
        summary=raw["summary"],
        versions=raw["versions"],
        range=specifier(raw["versions"], where),
        severity=severity,
        reads=raw["reads"],
        effect=raw["effect"],
        symptom=raw["symptom"],
        workaround=raw["workaround"],
        sources=tuple(raw["sources"]),
        confidence=raw["confidence"],
        last_verified=raw["last_verified"],
        checks=clauses,
        phase=raw.get("phase") or ("call" if raw.get("scope") == "request" else "listing"),
    )


def _profile(doc: Mapping[str, Any], rules: Mapping[str, Rule]) -> Profile:
    pid = doc["id"]
    try:
        versions = tuple(
            sorted(
                (
                    KnownVersion(Version(v["version"]), v["basis"], v["date"], v.get("note", ""))
                    for v in doc["versions"]
                ),
                key=lambda k: k.version,
            )
        )
    except InvalidVersion as exc:
        raise ProfileDataError(f"{pid}: {exc}") from None
    settings = {
        name: Setting(
            name, s["type"], s["default"], specifier(s["versions"], pid), s["description"]
        )
        for name, s in (doc.get("settings") or {}).items()
    }
    own = tuple(rules[r["id"]] for r in doc["rules"])
    includes = []
    for inc in doc.get("includes") or ():
        if inc["rule"] not in rules or rules[inc["rule"]].owner == pid:
            raise ProfileDataError(f"{pid}: includes unknown or own rule {inc['rule']!r}")
        sev = Severity(inc["severity"]) if "severity" in inc else None
        picked = tuple(inc["checks"]) if "checks" in inc else None
        if picked is not None and max(picked) >= len(rules[inc["rule"]].checks):
            raise ProfileDataError(f"{pid}: includes check {max(picked)} of {inc['rule']}")
        includes.append(Include(rules[inc["rule"]], inc["version"], sev, inc["why"], picked))
    for rule in own:
        for clause in rule.checks:
            names = {*clause.bind.values(), *clause.skip_if}
            if not names <= set(settings):
                raise ProfileDataError(f"{pid}/{rule.id}: unknown setting in {sorted(names)}")
            if not versions and (str(clause.versions) or rule.versions):
                raise ProfileDataError(f"{pid}/{rule.id}: version range in an unversioned profile")
    reads = tuple(
        (specifier(r["versions"], pid), tuple(r["listings"])) for r in doc.get("reads") or ()
    )
    return Profile(
        id=pid,
        enforcer=doc["enforcer"],
        summary=doc["summary"],
        package=doc["package"],
        versions=versions,
        reads=reads,
        settings=settings,
        rules=own,
        includes=tuple(includes),
        clients=tuple(
            ClientMatch(
                c.get("name_prefix", ""),
                c.get("title", ""),
                specifier(c["versions"], pid),
                c["source"],
                c.get("user_agent", ""),
            )
            for c in doc.get("clients") or ()
        ),
    )
