"""Allow `python -m catalogaudit`."""

from __future__ import annotations

from catalogaudit.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
