"""verbs."""
