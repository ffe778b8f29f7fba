"""snapshot."""
