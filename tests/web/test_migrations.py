"""The Alembic migrations and the code's schema (webapp.store.metadata) never drift apart."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from webapp.migrate import upgrade
from webapp.store import make_engine, metadata


def test_migrations_build_exactly_the_schema_the_code_uses(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'fresh.sqlite3'}")
    upgrade(engine)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diff == []


def test_upgrade_is_idempotent(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'twice.sqlite3'}")
    upgrade(engine)
    upgrade(engine)
    assert {"games", "seats", "actions", "chat"} <= set(inspect(engine).get_table_names())
