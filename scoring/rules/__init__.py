"""Per-variant rule tables (TOML data, one file per variant)."""
