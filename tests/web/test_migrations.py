"""The Alembic migrations and the code's schema (webapp.storage.schema.metadata) never drift apart, on
both databases Delve runs on: SQLite (one process) and PostgreSQL (several)."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from webapp.storage.engine import make_engine
from webapp.storage.migrate import upgrade
from webapp.storage.schema import metadata


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def fresh_engine(request, tmp_path):
    """An empty database of each kind."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    else:
        url = request.getfixturevalue("postgres_url")
    engine = make_engine(url)
    yield engine
    engine.dispose()


def test_migrations_build_exactly_the_schema_the_code_uses(fresh_engine):
    upgrade(fresh_engine)
    with fresh_engine.connect() as conn:
        # Types and server defaults too: PostgreSQL is strict where SQLite lets a mismatch pass.
        context = MigrationContext.configure(conn, opts={"compare_type": True, "compare_server_default": True})
        diff = compare_metadata(context, metadata)
    assert diff == []


def test_upgrade_is_idempotent(fresh_engine):
    upgrade(fresh_engine)
    upgrade(fresh_engine)
    assert {"games", "seats", "actions", "chat"} <= set(inspect(fresh_engine).get_table_names())
