"""Client, gateway and LLM-API profiles as data (`data/*.json`, `profile.schema.json`).

- `load`: read and validate the profile files and the verification record;
- `resolve`: `ID[@VERSION]` to the rules that apply, and `run_profile` over a catalog;
- `evidence`: how each rule is known (verified at listing time by a recorded run, or sources);
- `summary`: the profile table; `describe`: one profile as plain data.
"""

__all__ = ["describe", "evidence", "load", "resolve", "summary"]
