"""`audit --suggest`: propose a substitution list that clears the prose findings, and prove it.

A proposal is only worth printing if it works, so every candidate list is applied with the real
rewrite and re-audited with the same profiles; pairs that do not help are dropped again. Which
findings are "prose findings" is decided by location, not by rule: a finding whose location is a
string the prose walker visits is one a substitution can change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from catalogaudit.auditing import AuditOptions, audit
from catalogaudit.model import LISTINGS, Catalog, Finding, Report
from catalogaudit.rewriting.derive import FindingKey, Outcome, as_rewritten, compare, finding_key
from catalogaudit.rewriting.substitutions import (
    MAX_PAIRS,
    ascii_candidates,
    format_pairs,
    parse,
    shellish_candidates,
    unspellable,
)
from catalogaudit.walker import visits

#: Rounds of propose-apply-audit; a later round fixes what an earlier replacement introduced
#: (`→` becomes `->`, which a gateway may refuse as `> `).
MAX_ROUNDS = 4

PairList = list[tuple[str, str]]


@dataclass(frozen=True)
class Suggestion:
    """A proven proposal: the list, what it targets, and the re-audit that proves it."""

    pairs: tuple[tuple[str, str], ...]
    #: The list in the substitution grammar (empty when nothing needs rewriting).
    text: str
    #: Prose findings of the catalog as served.
    targeted: list[Finding]
    #: Prose findings before vs after the proposal (cleared, remaining, introduced).
    outcome: Outcome
    before: Report
    after: Report
    notes: tuple[str, ...] = ()

    @property
    def clears_all(self) -> bool:
        """Every prose finding cleared and none introduced."""
        return not self.outcome.remaining and not self.outcome.introduced


def prose_texts(catalog: Catalog) -> dict[str, str]:
    """Every prose string of the catalog by its pointer into the snapshot document."""
    out: dict[str, str] = {}
    for name in LISTINGS:
        for item in catalog.items(name):
            base = f"/listings/{name}/items/{item.index}"
            for visit in visits(name, item.value):
                out[base + visit.pointer] = visit.text
    return out


def prose_findings(catalog: Catalog, report: Report) -> list[tuple[Finding, str]]:
    """Findings located on a prose string, with that string's current text."""
    texts = prose_texts(catalog)
    found: list[tuple[Finding, str]] = []
    for f in report.sorted_findings():
        where = f.location.pointer if f.location is not None else None
        if where is not None and where in texts:
            found.append((f, texts[where]))
    return found


def _audit_with(catalog: Catalog, pairs: PairList, options: AuditOptions) -> tuple[Catalog, Report]:
    if not pairs:
        return catalog, audit(catalog, options)
    view, _ = as_rewritten(catalog, parse(format_pairs(pairs), "suggestion"))
    return view, audit(view, options)


def _remaining(catalog: Catalog, pairs: PairList, options: AuditOptions) -> Counter[FindingKey]:
    # NOTE: a multiset: one rule can hit one string several times (one hit per substring).
    view, report = _audit_with(catalog, pairs, options)
    return Counter(finding_key(f) for f, _ in prose_findings(view, report))


def suggest(catalog: Catalog, options: AuditOptions) -> Suggestion:
    """Propose, apply, re-audit; repeat on what is left; then drop pairs that did not help."""
    before = audit(catalog, options)
    targeted = prose_findings(catalog, before)
    notes: list[str] = []
    pairs: PairList = []
    flagged = [text for _, text in targeted]
    current = targeted
    for round_ in range(MAX_ROUNDS):
        if not current:
            break
        # First the substrings gateways refuse; non-ASCII folding only when that was not
        # enough (only an ASCII policy cares, and folding changes more text).
        proposed = shellish_candidates(flagged)
        if round_ or not proposed:
            proposed += ascii_candidates(flagged)
        if not proposed:
            break
        trial = pairs + proposed
        if len(trial) > MAX_PAIRS:
            notes.append(f"the proposal needed more than {MAX_PAIRS} pairs; kept the first ones")
            trial = trial[:MAX_PAIRS]
        view, report = _audit_with(catalog, trial, options)
        progress = prose_findings(view, report)
        if len(progress) >= len(current):
            break  # this round did not help: keep the previous list
        pairs = trial
        current = progress
        flagged = [text for _, text in current]
    pairs = _minimize(catalog, pairs, options)
    view, after = _audit_with(catalog, pairs, options)
    outcome = compare([f for f, _ in targeted], [f for f, _ in prose_findings(view, after)])
    if outcome.remaining:
        notes.append(_by_hand(outcome.remaining, [text for _, text in targeted]))
    return Suggestion(
        tuple(pairs),
        format_pairs(pairs),
        [f for f, _ in targeted],
        outcome,
        before,
        after,
        tuple(notes),
    )


def _by_hand(remaining: Sequence[Finding], texts: Sequence[str]) -> str:
    """Which findings need a rewrite by hand, and why no substitution clears them."""
    subjects = ", ".join(
        sorted({f"{f.rule_id} {f.kind}/{f.identity or ''}".rstrip("/") for f in remaining})
    )
    letters = unspellable(texts)
    why = (
        f"their text has letters or digits with no ASCII spelling ({', '.join(letters[:8])}"
        + (", ..." if len(letters) > 8 else "")
        + "), which a suggestion never deletes"
        if letters
        else "no substitution of characters clears them (for example a length limit)"
    )
    return f"{len(remaining)} prose finding(s) need a rewrite by hand ({subjects}): {why}"


def _minimize(catalog: Catalog, pairs: PairList, options: AuditOptions) -> PairList:
    """Drop every pair (last first) whose removal leaves no more prose findings."""
    if not pairs:
        return pairs
    best = _remaining(catalog, pairs, options)
    kept = list(pairs)
    for index in reversed(range(len(kept))):
        trial = kept[:index] + kept[index + 1 :]
        if _remaining(catalog, trial, options) <= best:
            kept = trial
    return kept


__all__: Sequence[str] = ("Suggestion", "suggest", "prose_findings")
