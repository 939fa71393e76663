"""Database migrations (Alembic): ``python -m webapp.migrate`` brings the database named by
``DATABASE_URL`` (default: the SQLite file under ``instance/``) to the newest schema.

The serve command runs it before starting; ``create_app`` runs it too, so a new database (tests,
a first start) is ready without a separate step. Upgrading is idempotent."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest schema, on one connection (serialised on PostgreSQL)."""
    config = alembic_config(engine.url.render_as_string(hide_password=False))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Two processes starting at once must not both create the tables.
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock(746153)")
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def main() -> None:
    from sqlalchemy.exc import SQLAlchemyError

    from . import database_error
    from .config import ConfigError, from_environment
    from .store import Store

    # Fail fast with one readable line (the serve command stops here, before gunicorn).
    try:
        url = from_environment()["DATABASE_URL"]
    except ConfigError as error:
        raise SystemExit(f"Delve cannot start: {error}") from None
    try:
        store = Store(url)  # as the app opens it: a fresh SQLite file's folder is made too
    except (SQLAlchemyError, OSError) as error:
        raise SystemExit(f"Delve cannot start: {database_error(url, error)}") from None
    print(f"database at the newest schema: {store.engine.url.render_as_string(hide_password=True)}")
    store.engine.dispose()


if __name__ == "__main__":
    main()
