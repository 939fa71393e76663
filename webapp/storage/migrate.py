"""Database migrations (Alembic): ``python -m webapp.storage.migrate`` brings the database named by
``DATABASE_URL`` (default: the SQLite file under ``instance/``) to the newest schema.

The serve command runs it before starting; ``create_app`` runs it too, so a new database (tests,
a first start) is ready without a separate step. Upgrading is idempotent."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from ..config import ConfigError, from_environment
from .engine import make_engine, open_engine

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


def database_error(url: str, error: Exception) -> ConfigError:
    """What to tell whoever starts the server when its database cannot be used (no password)."""
    try:
        where = make_engine(url).url.render_as_string(hide_password=True)
    except Exception:  # a URL SQLAlchemy cannot even parse
        where = "DATABASE_URL"
    reason = getattr(error, "orig", None) or error
    return ConfigError(f"cannot use the database at {where}: {type(reason).__name__}: {reason}".strip())


def main() -> None:
    # Fail fast with one readable line (the serve command stops here, before gunicorn).
    try:
        url = from_environment()["DATABASE_URL"]
    except ConfigError as error:
        raise SystemExit(f"Delve cannot start: {error}") from None
    try:
        engine = open_engine(url)  # as the app opens it: a fresh SQLite file's folder is made too
        upgrade(engine)
    except (SQLAlchemyError, OSError) as error:
        raise SystemExit(f"Delve cannot start: {database_error(url, error)}") from None
    print(f"database at the newest schema: {engine.url.render_as_string(hide_password=True)}")
    engine.dispose()


if __name__ == "__main__":
    main()
