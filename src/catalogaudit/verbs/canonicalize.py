"""`canonicalize` and `hash`: any catalog input to the one written form, with its hashes recomputed.

Why: the pre-commit hook keeps committed snapshots in the form `snapshot` writes, so a file that
another tool reformatted, or whose readable copy was edited by hand, must show up as a diff
instead of carrying stale hashes. When a snapshot has its `wire` section, that section is what
was served: the readable items, pages and all three hashes are rebuilt from it
(`snapshots.rehash`). Without it, served key order is lost (see `snapshots.build.WIRE_LOST`), so
canonical hashes are recomputed and the served-order hashes (served, prompt, pageFields) are
kept for items whose meaning did not change.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from catalogaudit.errors import EXIT_FINDINGS, EXIT_OK, InputError, UsageError
from catalogaudit.intake import input_name, read_bytes
from catalogaudit.model import visible
from catalogaudit.verbs import output

if TYPE_CHECKING:
    from catalogaudit.formatters import HashFormat

# NOTE: `canonicalize --jcs` reads bytes and writes `canonical.strict`'s; what only the written
# form, `hash` or exit 1 need (the snapshot document, `model.findings`, `model.protocol`, the
# hash formatter) is imported where used, so the one-shot --jcs process does not load it.


@dataclass(frozen=True)
class Result:
    """One input in written form: what was read, what it becomes, and what to tell the user."""

    name: str
    original: bytes
    doc: dict[str, Any]
    notes: tuple[str, ...] = ()
    #: CA544 findings this run added (an input that was not a snapshot: all of them).
    precision: tuple[str, ...] = ()
    snapshot: bool = True

    @cached_property
    def text(self) -> str:
        """The written form, written when asked for (`hash` of a raw result never needs it)."""
        # NOTE: snapshot modules are imported where used: `hash` and `--jcs` build no snapshot.
        from catalogaudit.snapshots import render

        return render(self.doc)

    @property
    def changed(self) -> bool:
        """True when the written form differs from the bytes read."""
        return self.original != self.text.encode("utf-8")

    def diff(self) -> str:
        """A unified diff from the bytes read to the written form."""
        # NOTE: lines end at "\n" only (str.splitlines also splits at NEL, U+2028 and other
        # characters a server may put in JSON strings), and every line is shown `visible`.
        import difflib

        old = _lines(self.original.decode("utf-8", "surrogateescape"))
        new = _lines(self.text)
        lines = difflib.unified_diff(old, new, self.name, f"{self.name} (canonical)")
        # NOTE: as GNU diff does, so a file without a final newline still diffs line by line.
        eof = "\n\\ No newline at end of file\n"
        return "".join(
            visible(ln[:-1], keep="\t") + "\n"
            if ln.endswith("\n")
            else visible(ln, keep="\t") + eof
            for ln in lines
        )


def _lines(text: str) -> list[str]:
    """`text` split after each newline (and only there), newlines kept."""
    parts = text.split("\n")
    out = [p + "\n" for p in parts[:-1]]
    return [*out, parts[-1]] if parts[-1] else out


def canonicalize(
    spec: str, protocol: str = "auto", data: bytes | None = None, *, original: bool = True
) -> Result:
    """Any input the intake reads, in the written form `snapshot` writes (`data`: its bytes,
    when already read; `original=False`: the bytes are not kept, `Result.original` is empty:
    for a caller that only writes the written form)."""
    from catalogaudit import intake

    got = intake.read_catalog(spec, protocol=protocol, rehash=True, data=data, raw=original)
    added = got.added if got.is_snapshot else tuple(got.doc["findings"])
    _validate(got.name, got.doc)
    precision = precision_notes(got.name, added)
    return Result(
        got.name,
        got.data,
        got.doc,
        (*got.warnings, *got.said),
        precision,
        got.is_snapshot,
    )


def _validate(name: str, doc: dict[str, Any]) -> None:
    from catalogaudit.model import pointer_of
    from catalogaudit.snapshots import errors

    found = errors(doc)
    if not found:
        return
    import jsonschema  # lazy: heavy

    error = jsonschema.exceptions.best_match(found)
    if error is not None:
        where = f"{pointer_of(error.absolute_path)}: ".removeprefix(": ")
        raise InputError(f"{name}: not a valid catalogaudit snapshot: {where}{error.message}")


#: CA544 lines printed per input; one more line counts the rest (a catalog of 50-digit
#: integers flooded the terminal with one line each).
PRECISION_LINES = 10


def precision_notes(name: str, findings: Sequence[Any]) -> tuple[str, ...]:
    """stderr lines for the CA544 findings (one per item or page holding integers the
    canonical hash sees as IEEE doubles): one per finding up to `PRECISION_LINES`, then how
    many more (`audit` lists them all)."""
    found = [f for f in findings if isinstance(f, dict) and f.get("ruleId") == "CA544"]
    notes = [f"{name}: warning: CA544 {f.get('message')}" for f in found[:PRECISION_LINES]]
    if len(found) > PRECISION_LINES:
        more = len(found) - PRECISION_LINES
        notes.append(
            f"{name}: warning: CA544 in {more:,} more items or pages with integers beyond "
            "2^53-1 (catalogaudit audit lists them all)"
        )
    return tuple(notes)


# --- the verbs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """What `catalogaudit canonicalize` was asked to do."""

    inputs: tuple[str, ...]
    check: bool = False
    in_place: bool = False
    output: str | None = None
    jcs: bool = False
    protocol: str = "auto"


def run(o: Options) -> int:
    """Canonicalize; exit 1 when `--check`/`--in-place` found a file not in written form.

    Option combinations are checked by `options`.
    """
    if o.jcs:
        from catalogaudit.canonical import write_jcs

        spec = o.inputs[0]
        name, data = input_name(spec), read_bytes(spec)
        output.emit_document(o.output, lambda fh: write_jcs(data, name, fh), lambda _: None)
        return EXIT_OK
    # NOTE: all read before any write; the bytes read are compared only by --check and
    # --in-place
    compared = o.check or o.in_place
    results = [canonicalize(spec, o.protocol, original=compared) for spec in o.inputs]
    notes = "".join(f"{note}\n" for r in results for note in (*r.notes, *r.precision))
    if not (o.check or o.in_place):
        from catalogaudit.snapshots import write

        doc = results[0].doc
        output.emit_document(o.output, lambda fh: write(doc, fh), lambda _: None)
        output.say(notes.splitlines())
        return EXIT_OK
    output.say(notes.splitlines())
    changed = [r for r in results if r.changed]
    for r in changed:
        if o.check:
            sys.stdout.buffer.write(r.diff().encode("utf-8", "surrogateescape"))
            output.say([f"{r.name}: would be rewritten"])
        else:
            output.emit(r.name, r.text.encode("utf-8"))
            output.say([f"{r.name}: rewritten"])
    sys.stdout.flush()
    return EXIT_FINDINGS if changed else EXIT_OK


def hashes_of(spec: str, protocol: str = "auto") -> tuple[dict[str, Any], list[str]]:
    """The hash report of any input (see `hash_report`), and notes for stderr.

    List results of one page per listing take `canonical.quick` (no snapshot is built; same
    report)."""
    from catalogaudit.canonical import quick_hash_report
    from catalogaudit.model import parse_protocol

    parse_protocol(protocol)  # NOTE: a bad --protocol is refused whichever path is taken
    data = read_bytes(spec)
    name = input_name(spec)
    quick = quick_hash_report(name, data)
    if quick is not None:
        return quick[0], [f"{name}: {note}" for note in quick[1]]
    r = canonicalize(spec, protocol, data)
    notes = [*r.notes, *precision_notes(r.name, r.doc["findings"])]
    if r.snapshot and r.changed:
        notes.append(
            f"{r.name}: not in written form, so these hashes are recomputed, not the recorded "
            f"ones (catalogaudit canonicalize --in-place {r.name} rewrites it)"
        )
    return hash_report(r), notes


def hash_report(r: Result) -> dict[str, Any]:
    """The hashes of a canonicalized input, items in file (identity) order."""
    from catalogaudit.snapshots import hash_document

    return hash_document(r.name, r.doc)


def options(
    inputs: list[str],
    check: bool,
    in_place: bool,
    output: str | None,
    jcs: bool,
    protocol: str,
) -> Options:
    """Validated `Options`: which option combinations make sense."""
    if check and in_place:
        raise UsageError("give --check or --in-place, not both")
    if output is not None and (check or in_place):
        raise UsageError("-o writes one file; it cannot be combined with --check or --in-place")
    if jcs and (check or in_place):
        raise UsageError("--jcs cannot be combined with --check or --in-place")
    if len(inputs) > 1 and (jcs or output is not None or not (check or in_place)):
        what = "--jcs" if jcs else "-o" if output is not None else "writing to stdout"
        raise UsageError(
            f"{what} takes one input, got {len(inputs)} (use --check or --in-place for several)"
        )
    if inputs.count("-") > 1:
        raise UsageError("- (stdin) can be given once")
    for spec in inputs:
        if in_place and (spec == "-" or spec.startswith("git:")):
            raise UsageError(f"--in-place cannot rewrite {spec} (not a file)")
    return Options(tuple(inputs), check, in_place, output, jcs, protocol)


def run_hash(
    spec: str, fmt: HashFormat, protocol: str = "auto", clients: Sequence[str] = ()
) -> int:
    """`catalogaudit hash`: print the hash report of one input (notes on stderr); exit 0.
    `clients`: also each one's prompt hash (`hash --client C`, `all`: every client)."""
    from catalogaudit.formatters import format_hashes

    asked = _clients(clients) if clients else []
    report, notes = hashes_of(spec, protocol)
    if asked:
        prompts = client_prompts(spec, protocol, asked)
        report["clients"] = {c: p.as_dict() for c, p in prompts.items()}
        notes += [p.note for p in prompts.values() if p.note]
    output.say(notes)
    output.emit("-", format_hashes(report, fmt))
    return EXIT_OK


def _clients(clients: Sequence[str]) -> list[str]:
    """`--client` values checked: profile ids with `model_view` data (`all`: every one)."""
    from catalogaudit.verify import prompt_clients

    known = prompt_clients()
    asked = [c.strip() for given in clients for c in given.split(",") if c.strip()]
    if "all" in asked:
        return known
    for c in asked:
        if c.partition("@")[0] not in known:
            raise UsageError(
                f"--client {c}: no model_view data in its profile, so what it sends the model "
                f"is not predicted; clients with it: {', '.join(known)}"
            )
    return asked


def client_prompts(spec: str, protocol: str, clients: Sequence[str]) -> dict[str, Any]:
    """Each client's prompt for the input's tools, from its served bytes (the wire copy)."""
    from catalogaudit.diffing import sides_of
    from catalogaudit.verify import prompts_of

    r = canonicalize(spec, protocol)
    sides, _ = sides_of(r.name, r.doc)
    return dict(prompts_of(sides[:1], clients)[sides[0].label])
