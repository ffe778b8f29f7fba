"""`catalogaudit profiles [ID[@VERSION]]`: what each profile checks, for which versions, and on
what evidence."""

from __future__ import annotations

from catalogaudit.formatters import ProfilesFormat, format_detail, format_summaries
from catalogaudit.model import EXIT_OK
from catalogaudit.profiles import describe_profile as describe
from catalogaudit.profiles import profile_summaries
from catalogaudit.verbs import output, terminal


def run(profile: str | None, fmt: ProfilesFormat) -> int:
    """Print the profile table, or one profile's rules; exit 0 (2 for an unknown id)."""
    color, width = terminal.color("auto", "-"), terminal.width("-")
    if profile is None:
        text = format_summaries(profile_summaries(), fmt, color=color, width=width)
    else:
        text = format_detail(describe(profile), fmt, color=color, width=width)
    output.emit("-", text, styled=color)
    return EXIT_OK
