"""The repository's root conftest: plugins every test run loads (doctests of the packages included)."""

pytest_plugins = ["tests.shared_guard", "pytester"]
