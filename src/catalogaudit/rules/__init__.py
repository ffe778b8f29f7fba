"""Rules: the spec rules (`CA` ids) and the profile check vocabulary."""
