"""The table-host fixtures (a host on a database file, an injected clock), shared with tests/host."""

from __future__ import annotations

from tests.host.conftest import clock, db_path, make_host  # noqa: F401 - pytest finds fixtures by name
