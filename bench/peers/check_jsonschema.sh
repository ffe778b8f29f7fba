#!/bin/sh
# Peer of `catalogaudit audit` (spec): check-jsonschema against the MCP ListToolsResult schema
# (list-tools-result.schema.json, next to this file, written by bench/run.py from the vendored
# 2025-11-25 schema). CHECK_JSONSCHEMA names the executable (bench/run.py finds it).
exec "${CHECK_JSONSCHEMA:-check-jsonschema}" --schemafile "$(dirname "$0")/list-tools-result.schema.json" "$@"
