"""The spec rules (`CA1xx`-`CA7xx`): what the MCP revision itself requires, per item, per
schema and per page, checked against the vendored official schemas in `mcp/`."""

__all__ = ["common", "items", "metaschema", "pages", "runs", "schema", "volatile"]
