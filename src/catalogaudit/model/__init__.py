"""The vocabulary every layer shares; it imports nothing of ours but `errors`.

- `jsonwire`: wire-faithful JSON values (number lexemes, duplicate keys), the written form,
  JSON Pointers;
- `names`: the four listings, their methods, item identity, the prompt projection;
- `protocol`: revisions, `--protocol`/`--client-capabilities`, the negotiated `Session`;
- `capture`: pages, listings and captures as records, and the wire anomaly findings;
- `catalog`: the catalog under audit (`Catalog`, `Item`) over a snapshot document;
- `findings`: findings, rule metadata, reports and exit codes;
- `envelope`: the `$schema`/`formatVersion`/`kind` envelope of every JSON output;
- `validation`: jsonschema-rs validators that agree with python-jsonschema, and the plain
  values they read;
- `verify`: verify's observations, rows, runs, and the ids that have a driver.
"""

__all__ = [
    "capture",
    "catalog",
    "envelope",
    "findings",
    "jsonwire",
    "names",
    "protocol",
    "validation",
    "verify",
]
