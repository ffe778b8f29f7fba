"""rules/spec."""
