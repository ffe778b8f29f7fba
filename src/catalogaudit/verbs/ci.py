"""`catalogaudit ci`: the release gate as one step (the GitHub Action's body, and usable in any
CI): capture the server (or take the committed snapshot), diff it against the snapshot committed
at the baseline (default: the pull request's merge base), audit it, write the job summary, keep
one pull-request comment up to date, write SARIF when asked, and set the step's outputs.

Exit codes: 0 nothing at or above either `--fail-on`; 1 a change at or above `--diff-fail-on`,
a finding at or above `--audit-fail-on`, or a capture unstable across `--runs`; 2 usage, input
or server errors. The comment is a report, not the verdict: when the API cannot be reached the
run says so in one `warning:` line and keeps its exit code.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from catalogaudit import intake
from catalogaudit.auditing import audit
from catalogaudit.diffing import DiffResult, diff, sides_of
from catalogaudit.errors import CatalogauditError, UsageError
from catalogaudit.formatters import OutputFormat, format_report
from catalogaudit.model import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, Catalog, Report, Severity
from catalogaudit.verbs import github, output, restapi
from catalogaudit.verbs.live import SnapshotOptions

AUDIT_FAIL_ON = ("error", "warning", "info", "never")
DIFF_FAIL_ON = ("breaking", "model-visible", "cosmetic", "never")
#: The Markdown budget of each of the two sections (diff, audit), so summary and comment stay
#: under 60,000 characters and below GitHub's 65,536-character comment limit.
SECTION_CHARS = 28000


@dataclass(frozen=True)
class CiOptions:
    """What `catalogaudit ci` was asked to do."""

    #: The committed snapshot ("": configuration `snapshot`, else catalog.snapshot.json).
    snapshot: str = ""
    #: How to reach the server; neither command nor url: the committed snapshot is the candidate.
    server: SnapshotOptions = SnapshotOptions()
    baseline: str | None = None
    #: Empty: from configuration, as `audit` takes them (`fail-on`, `diff-fail-on`), else
    #: spec, error and breaking.
    profiles: tuple[str, ...] = ()
    audit_fail_on: str = ""
    diff_fail_on: str = ""
    #: `--config FILE`; None: catalogaudit.toml or pyproject.toml found as every verb finds it.
    config: str | None = None
    #: `--accepted FILE` (None: config `accepted`, else catalogaudit.accepted.toml if present).
    accepted: str | None = None
    comment: bool = True
    sarif: bool = False
    #: Where the summary, the SARIF file and the new snapshot go (default: RUNNER_TEMP).
    out_dir: str | None = None
    #: Seconds for the whole conversation with GitHub's API (the comment).
    api_timeout: float = 60.0


@dataclass
class Gate:
    """What the run found, for the outputs and the summary."""

    result: DiffResult | None
    report: Report
    unstable: bool
    baseline: str
    #: How the baseline ref was chosen (`--baseline`, the merge base of ..., HEAD).
    how: str
    #: The configuration file that set this run's defaults ("" when none).
    config: str = ""


def run_ci(o: CiOptions, environ: dict[str, str] | None = None) -> int:
    """The whole gate; returns the exit code (also written to the `exit-code` output)."""
    env = environ if environ is not None else github.environ()
    snapshot = o.snapshot or "catalog.snapshot.json"
    try:
        o, setup, where = _configured(o)
        snapshot = o.snapshot or snapshot
        _check(o)
        out = _out_dir(o, env)
        payload = github.event(env)
        gate = _gate(o, env, payload, out, setup)
        gate.config = where
    except CatalogauditError as exc:
        # NOTE: the step still reports: the summary says what failed, the outputs say 2.
        from catalogaudit.formatters import code as md_code
        from catalogaudit.formatters import escape_text

        exc.args = (restapi.mask(str(exc), env.get("GITHUB_TOKEN", "")),)
        head = f"{marker(snapshot)}\n## catalogaudit: {md_code(snapshot)} errored\n\n"
        github.add_summary(env, head + f"error: {escape_text(str(exc))}\n")
        github.set_outputs(env, {"exit-code": str(EXIT_ERROR)})
        raise exc from None
    code = _exit_code(o, gate)
    body = summary(o, gate, code)
    summary_path = out / "summary.md"
    output.write_atomic(str(summary_path), body)
    github.add_summary(env, body)
    values = {
        "has-breaking": _bool(_level(gate, 3)),
        "model-visible": _bool(_level(gate, 2)),
        "findings": str(_failing_findings(gate.report, o.audit_fail_on)),
        "exit-code": str(code),
        "summary-path": str(summary_path),
        "snapshot-path": str(out / "new.snapshot.json") if _live(o) else o.snapshot,
    }
    if o.sarif:
        sarif_path = out / "catalogaudit.sarif"
        output.write_atomic(str(sarif_path), format_report(gate.report, OutputFormat.SARIF))
        values["sarif-path"] = str(sarif_path)
    if o.comment:
        _comment(o, env, payload, body)
    refused = github.set_outputs(env, values)
    output.say([f"warning: output {k} not written: its value holds a line break" for k in refused])
    output.say([_line(o, gate, code)])
    return code


def _configured(o: CiOptions) -> tuple[CiOptions, Any, str]:
    """The options with what they leave open taken from the configuration, the audit it asks
    for (`verbs.audit.configured`: the same keys and precedence as `audit`), and its file."""
    from catalogaudit.verbs import config as cfg
    from catalogaudit.verbs.audit import AuditRunOptions, configured

    conf, where = cfg.load(o.config)
    snapshot = o.snapshot or conf.get("snapshot") or "catalog.snapshot.json"
    if Path(snapshot).is_absolute():  # configured in a parent directory: make it relative
        snapshot = os.path.relpath(snapshot)
    diff_fail_on = o.diff_fail_on or conf.get("diff-fail-on") or "breaking"
    setup = configured(AuditRunOptions(profiles=o.profiles, fail_on=o.audit_fail_on or None), conf)
    from catalogaudit.verbs.accepted import path_of

    accepted = path_of(o.accepted, conf)
    o = replace(o, snapshot=snapshot, audit_fail_on=setup.fail_on, diff_fail_on=diff_fail_on)
    return replace(o, accepted=accepted), setup, where


def _check(o: CiOptions) -> None:
    if o.audit_fail_on not in AUDIT_FAIL_ON:
        raise UsageError(f"--audit-fail-on must be one of {', '.join(AUDIT_FAIL_ON)}")
    if o.diff_fail_on not in DIFF_FAIL_ON:
        raise UsageError(f"--diff-fail-on must be one of {', '.join(DIFF_FAIL_ON)}")
    if o.server.command and o.server.url:
        raise UsageError("give either a server command after -- or --url, not both")
    if o.snapshot.startswith(("git:", "-")) or Path(o.snapshot).is_absolute():
        raise UsageError("--snapshot is the committed snapshot's path in the repository")
    if re.search(r"[\x00-\x1f\x7f]", o.snapshot):
        raise UsageError("--snapshot cannot hold a line break or another control character")
    if o.baseline is not None and (not o.baseline or o.baseline.startswith("-")):
        raise UsageError("--baseline must name a git ref (and cannot start with '-')")


def _out_dir(o: CiOptions, env: dict[str, str]) -> Path:
    if o.out_dir:
        path = Path(o.out_dir)
    elif env.get("RUNNER_TEMP"):
        path = Path(env["RUNNER_TEMP"]) / "catalogaudit"
    else:
        path = Path(tempfile.mkdtemp(prefix="catalogaudit-ci-"))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--out-dir {path}: cannot create it ({exc.strerror})") from None
    return path


def _live(o: CiOptions) -> bool:
    return bool(o.server.command or o.server.url)


def _gate(
    o: CiOptions, env: dict[str, str], payload: dict[str, Any], out: Path, setup: Any
) -> Gate:
    if o.baseline is not None:
        ref, how = o.baseline, "--baseline"
    else:
        ref, how = github.merge_base(payload, env)
    unstable = False
    if _live(o):
        from catalogaudit.verbs import snapshot

        new_path = str(out / "new.snapshot.json")
        unstable = snapshot.snapshot(replace(o.server, output=new_path)) == EXIT_FINDINGS
    else:
        new_path = o.snapshot
        if not Path(new_path).is_file():
            raise UsageError(f"--snapshot {o.snapshot}: no such file (and no server to capture)")
    new = intake.read_catalog(new_path)
    output.say(new.warnings)
    result = None
    # NOTE: `REF:./PATH` is relative to the current directory (the Action's working-directory);
    # `REF:PATH` would be relative to the repository's root.
    in_repo = o.snapshot if o.snapshot.startswith("./") else f"./{o.snapshot}"
    if github.exists(ref, in_repo):
        old = intake.read_catalog(f"git:{ref}:{in_repo}")
        output.say(old.warnings)
        olds, more = sides_of(f"{o.snapshot}@{ref[:12]}", old.doc)
        news, extra = sides_of(o.snapshot, new.doc)
        result = diff(olds[0], news[0])
        result.notes.extend([*more, *extra])
        from catalogaudit.verbs import accepted

        accepted.apply(result, o.accepted)
        # stale or expired acceptances on stderr too (the other warnings are in the summary)
        taken = [w for w in result.warnings if str(w.get("kind")).startswith("accepted-")]
        output.say([f"warning: {w['message']}" for w in taken])
    # NOTE: findings point at the committed file by its path from the repository's root, as
    # code scanning and GitLab resolve them (the Action may run in a working-directory).
    source = github.repo_path(o.snapshot)
    catalog = Catalog(new.doc, source=source, text=None if _live(o) else new.text)
    report = audit(catalog, setup.options)
    setup.finish(report)
    return Gate(result, report, unstable, ref, how)


def _exit_code(o: CiOptions, gate: Gate) -> int:
    if gate.report.rule_errors:
        return EXIT_ERROR
    failed = gate.unstable or gate.report.exit_code(o.audit_fail_on) == EXIT_FINDINGS
    if gate.result is not None and o.diff_fail_on != "never":
        failed = failed or gate.result.exit_code(o.diff_fail_on) == EXIT_FINDINGS
    return EXIT_FINDINGS if failed else EXIT_OK


def _level(gate: Gate, level: int) -> bool:
    """Whether a change not accepted reaches `level` (3 breaking, undecidable included; 2
    model-visible)."""
    changes = gate.result.changes if gate.result is not None else []
    return any(c.level("fail") >= level and c.accepted is None for c in changes)


def _failing_findings(report: Report, fail_on: str) -> int:
    if fail_on == "never":
        return 0
    rank = Severity(fail_on).rank
    return sum(1 for f in report.findings if f.severity.rank >= rank)


def _bool(value: bool) -> str:
    return "true" if value else "false"


def marker(snapshot: str) -> str:
    """The hidden marker that finds this gate's comment again (one comment per snapshot)."""
    return f"<!-- catalogaudit:ci {re.sub(r'[^A-Za-z0-9._/-]', '_', snapshot)} -->"


def summary(o: CiOptions, gate: Gate, code: int) -> str:
    """The job summary and the comment's body: the verdict, the diff, the audit."""
    from catalogaudit.formatters import code as md_code
    from catalogaudit.formatters import diff_markdown, escape_text, format_markdown

    verdict = {EXIT_OK: "passed", EXIT_FINDINGS: "failed", EXIT_ERROR: "errored"}[code]
    parts = [
        marker(o.snapshot),
        f"## catalogaudit: {md_code(o.snapshot)} {verdict}",
        "",
        f"- baseline: {md_code(o.snapshot)} at {md_code(gate.baseline)} ({escape_text(gate.how)})",
    ]
    if gate.result is None:
        parts.append(f"- {md_code(o.snapshot)} does not exist at the baseline: no diff")
    if gate.unstable:
        parts.append("- the catalog differed between runs: see `catalogaudit stability`")
    profiles = ", ".join(md_code(p) for p in gate.report.profiles or ["spec"])
    parts += [
        f"- profiles: {profiles}",
        f"- fails on: a finding at {md_code(o.audit_fail_on)} or worse, a change at "
        f"{md_code(o.diff_fail_on)} or above",
        f"- configuration: {md_code(os.path.relpath(gate.config))}"
        if gate.config
        else "- configuration: none",
        "",
    ]
    if gate.result is not None:
        parts += [
            "<details open><summary>Changes since the baseline</summary>",
            "",
            diff_markdown(gate.result, o.diff_fail_on, "fail", max_chars=SECTION_CHARS),
            "</details>",
            "",
        ]
    parts += [
        "<details><summary>Audit</summary>",
        "",
        # NOTE: the page's title is `##`; the diff and the audit are its `###` sections
        format_markdown(gate.report, max_chars=SECTION_CHARS, level=3),
        "</details>",
        "",
    ]
    return "\n".join(parts)


def _comment(o: CiOptions, env: dict[str, str], payload: dict[str, Any], body: str) -> None:
    number = github.pull_number(payload)
    api = restapi.Api.from_environ(env, o.api_timeout)
    if number is None:
        output.say(["note: not a pull request: no comment posted"])
        return
    if api is None:
        output.say(["warning: no GITHUB_TOKEN or GITHUB_REPOSITORY: no comment posted"])
        return
    try:
        action, url = restapi.upsert_comment(api, number, marker(o.snapshot), body)
    except restapi.CommentError as exc:
        output.say([f"warning: pull-request comment not posted: {exc} (the verdict stands)"])
        return
    output.say([f"comment {action}: {url}" if url else f"comment {action}"])


def _line(o: CiOptions, gate: Gate, code: int) -> str:
    counts = gate.result.counts() if gate.result is not None else {}
    changed = ", ".join(f"{n} {k}" for k, n in counts.items() if n) or "no changes"
    taken = sum(1 for c in gate.result.changes if c.accepted) if gate.result is not None else 0
    changed += f" ({taken} accepted)" if taken else ""
    if gate.result is None:
        changed = "no baseline"
    c = gate.report.counts()
    return (
        f"ci: {o.snapshot}: {changed}; {c['error']} error(s), {c['warning']} warning(s), "
        f"{c['info']} info; exit {code}"
    )
