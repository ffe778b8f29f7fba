#!/bin/sh
# Peer of a live `catalogaudit snapshot`: the MCP Inspector CLI listing what a snapshot lists.
# Its `--cli` mode runs one method per call (each call starts the server, initializes, sends
# the one request and exits), so listing the four takes four calls, as a user's script would
# make them: one after the other, `--format json` (one JSON object on stdout, the form its
# docs give for scripts). INSPECTOR names the executable (bench/run.py finds it).
# Usage: inspector_cli.sh COMMAND [ARG...]
set -e
for method in tools/list prompts/list resources/list resources/templates/list; do
  "${INSPECTOR:-mcp-inspector}" --cli --format json "$@" --method "$method"
done
