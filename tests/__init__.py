"""The test suite (a package, so tests can share helpers such as `tests.match_helpers`)."""
