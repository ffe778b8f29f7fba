#!/bin/sh
# Peer of `catalogaudit audit` (spec): check-jsonschema against the MCP list-result schemas
# (list-result.schema.json, next to this file, written by bench/corpus.py from the vendored
# 2025-11-25 schema). CHECK_JSONSCHEMA names the executable (bench/run.py finds it).
exec "${CHECK_JSONSCHEMA:-check-jsonschema}" --schemafile "$(dirname "$0")/list-result.schema.json" "$@"
