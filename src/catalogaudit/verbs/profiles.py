"""`catalogaudit profiles [ID[@VERSION]]`: what each profile checks, for which versions, and on
what evidence."""

from __future__ import annotations

from catalogaudit.formatters import ProfilesFormat, format_detail, format_summaries
from catalogaudit.model import EXIT_OK
from catalogaudit.profiles import describe_profile as describe
from catalogaudit.profiles import profile_summaries
from catalogaudit.verbs import output


def run(profile: str | None, fmt: ProfilesFormat) -> int:
    """Print the profile table, or one profile's rules; exit 0 (2 for an unknown id)."""
    if profile is None:
        output.emit("-", format_summaries(profile_summaries(), fmt))
    else:
        output.emit("-", format_detail(describe(profile), fmt))
    return EXIT_OK
