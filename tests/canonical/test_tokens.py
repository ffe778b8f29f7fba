"""Token counts: `catalogaudit.canonical.tokens` against the reference tokenizer (tiktoken's own
o200k_base, `helpers.tokens`) on every fixture catalog, per item, per listing, per catalog,
on the served prompt projection and on each client's predicted prompt."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT
from helpers.tokens import reference, resent

from catalogaudit import intake
from catalogaudit.canonical import count_tokens, prompt_projection, tokens_resent
from catalogaudit.diffing import sides_of
from catalogaudit.model import LISTINGS, compact
from catalogaudit.verify import prompts_of

CATALOGS = sorted((ROOT / "fixtures" / "real-servers").glob("*.snapshot.json")) + sorted(
    (ROOT / "fixtures" / "captures").glob("*.snapshot.json")
)


@pytest.fixture(scope="module")
def ref(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return reference(str(tmp_path_factory.mktemp("tiktoken")))


def _tokens(enc: Any, text: str) -> int:
    return len(enc.encode_ordinary(text))


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.name)
def test_counts_equal_tiktoken_on_fixture_catalogs(ref: Any, path: Path) -> None:
    (side, *_), _ = sides_of(path.name, intake.read_catalog(str(path)).doc)
    blocks = []
    for listing in LISTINGS:
        items = side.wire_items(listing) or side.served(listing)
        texts = [compact(prompt_projection(listing, i)) for i in items]
        for text in texts:
            assert count_tokens(text) == _tokens(ref, text), text[:200]
        blocks.append("[" + ",".join(texts) + "]")
        assert count_tokens(blocks[-1]) == _tokens(ref, blocks[-1])
    catalog = "".join(blocks)
    assert count_tokens(catalog) == _tokens(ref, catalog) > 0
    for prompt in prompts_of([side])[side.label].values():
        # a request without this server's tools (a client that fails its list) sends none
        assert prompt.tokens() == (_tokens(ref, prompt.text) if prompt.inline else 0)
        shown = prompt.as_dict()["tools"]
        for tool, sent in zip(shown, prompt.tools, strict=True):
            assert tool["tokens"] == (_tokens(ref, sent.text) if sent.text else 0)


def test_the_whole_snapshot_files_count_as_tiktoken_counts_them(ref: Any) -> None:
    # megabyte-sized texts with every kind of JSON punctuation, escapes and non-ASCII prose
    for path in CATALOGS:
        text = path.read_text(encoding="utf-8")
        assert count_tokens(text) == _tokens(ref, text), path.name


def test_tokens_resent_start_at_the_first_token_that_differs(ref: Any) -> None:
    old = '[{"name":"alpha","inputSchema":{"type":"object","properties":{"q":{}}}}]'
    new = '[{"name":"alpha","inputSchema":{"properties":{"q":{}},"type":"object"}}]'
    assert tokens_resent(old, new) == resent(ref, old, new) > 0
    assert tokens_resent(old, old) == 0
    assert tokens_resent("", new) == _tokens(ref, new)
    # a lone surrogate (JSON may hold one) counts as U+FFFD instead of failing
    assert count_tokens("a\ud800b") == _tokens(ref, "a\ufffdb")


def test_texts_cut_after_punctuation_and_a_quote_count_as_tiktoken_counts_them(
    ref: Any,
) -> None:
    # around each cut (ASCII punctuation and `"`, then a letter or digit): every punctuation
    # character first, what may sit before it, after the letter, and near-misses where the
    # pre-tokenizer does not end a piece (a letter, a space or a mark before the quote)
    punct = [chr(c) for c in range(0x21, 0x7F) if not chr(c).isalnum()]
    heads = ["", "x", " ", "\n", "\r\n", "/", "'", "1", "é", "\u0301", "\ud800", "},", ":{"]
    tails = [
        "a",
        "A",
        "7",
        "ab'll",
        "É",
        "_",
        "_id",
        " ",
        " value",
        "\n",
        "\nx",
        "/",
        "/x",
        "'s",
        "\u0301",
        "",
        '"',
    ]
    befores = [*punct, "a", "Z", "5", " ", "\n", "\t", "\u0301", "é", "\x01"]
    texts = [f'{h}{p}"{t}{t}{p}{h}{p}"{t}' for h in heads for t in tails for p in befores[::3]]
    texts += [f'{h}{p}"{t}' for h in heads[::4] for t in tails for p in befores]
    for text in texts:
        want = _tokens(ref, text.replace("\ud800", "\ufffd"))
        assert count_tokens(text) == want, repr(text)
    for old in texts[::37]:
        for new in texts[::41]:
            assert tokens_resent(old, new) == resent(ref, old, new), (old, new)


def test_one_part_cache_serves_every_client_and_the_served_projection(ref: Any) -> None:
    # as a bill counts: one `known` for every client's prompt and the served projection of
    # every fixture catalog (parts equal across them are counted once and reused)
    known: dict[bytes, int] = {}
    for path in CATALOGS:
        (side, *_), _ = sides_of(path.name, intake.read_catalog(str(path)).doc)
        items = side.wire_items("tools") or side.served("tools")
        served = "[" + ",".join(compact(prompt_projection("tools", i)) for i in items) + "]"
        assert count_tokens(served, known) == _tokens(ref, served), path.name
        for prompt in prompts_of([side])[side.label].values():
            assert count_tokens(prompt.text, known) == _tokens(ref, prompt.text), path.name
    assert known


@pytest.mark.parametrize("path", CATALOGS[:6], ids=lambda p: p.name)
def test_tokens_resent_equal_tiktoken_after_one_edit_anywhere(ref: Any, path: Path) -> None:
    (side, *_), _ = sides_of(path.name, intake.read_catalog(str(path)).doc)
    for prompt in prompts_of([side])[side.label].values():
        old = prompt.text
        # as a bill counts: the parts of `old` kept and reused for every edited text
        known: dict[bytes, int] = {}
        assert count_tokens(old, known) == _tokens(ref, old)
        for at in range(0, len(old), max(1, len(old) // 7)):
            for edit in ('{"b', "x", ""):
                new = old[:at] + edit + old[at + 1 :]
                assert tokens_resent(old, new, known) == resent(ref, old, new), (at, edit)
                utf8 = (new.encode("utf-8", "surrogatepass"), old.encode("utf-8", "surrogatepass"))
                assert tokens_resent(*utf8) == resent(ref, new, old), (at, edit)


def test_the_vocabulary_is_read_as_tiktoken_reads_it(ref: Any) -> None:
    # `tokens._encoding` takes each token's rank from its line number in the pinned file;
    # tiktoken reads the rank written on the line.
    from catalogaudit.canonical.tokens import _encoding

    ours = _encoding()._mergeable_ranks
    assert len(ours) == 199_998 and ours == ref._mergeable_ranks
