"""The package version, in one home that imports nothing.

Every layer names it (`clientInfo`, reports, `--version`), and the package root re-exports it;
modules import it from here, not from the root, because the root is the public API and may
import any layer (importing the root from below would be a cycle). flit reads it here too.
"""

from __future__ import annotations

__version__ = "0.1.0"
