"""verify/drivers."""
