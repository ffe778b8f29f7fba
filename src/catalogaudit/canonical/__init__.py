"""canonical."""
