"""The action path's few hot statements, run on the pooled connection's own DBAPI cursor.

For a one-row statement SQLAlchemy's execution (its execution context, result object, row
mappings and event checks) costs several times the driver's own ``execute`` (issue 24: reading a
game's seats on SQLite, 146 µs through ``Connection.execute`` and 46 µs here, 23 µs of it the
driver's), and an action reads its game and its seats and writes its row every time.

A ``DriverStatement`` is still SQLAlchemy Core: compiled by the connection's dialect, once per
dialect, so the text, its bind casts and its paramstyle are what Core sends; its bind values pass
through the same type processors. Only the execution is the driver's: the statement runs on the
cursor of the connection SQLAlchemy lent, inside that connection's transaction, and the driver's
tuples are the rows.

What stays as with Core: ``before_cursor_execute`` listeners see each statement (tests count
statements), a driver error is raised as SQLAlchemy's (``IntegrityError`` …), and a connection the
error shows lost is invalidated so the pool never lends it again. What a statement may not have:
result columns whose type converts the driver's value (checked on its first run), since the
driver's value is handed back as it is. Every other statement stays on SQLAlchemy Core.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.expression import Insert, Select, Update


@dataclass(frozen=True)
class _Compiled:
    """A statement as one dialect's driver takes it."""

    sql: str
    positions: tuple[str, ...] | None
    """The bind names in order, for a positional paramstyle (SQLite's qmark); None for a named one."""
    defaults: dict[str, Any]
    """The binds the statement carries its own values for (``revision + 1``'s 1)."""
    processors: tuple[tuple[str, Callable[[Any], Any]], ...]
    """Each bind whose type converts its value for this driver (a Float's ``float()`` on SQLite)."""

    def parameters(self, params: dict[str, Any]) -> Any:
        values = {**self.defaults, **params}
        for name, process in self.processors:
            values[name] = process(values[name])
        if self.positions is None:
            return values
        return tuple(values[name] for name in self.positions)


class DriverStatement:
    """One hot statement: SQLAlchemy compiles it, the connection's DBAPI cursor runs it."""

    def __init__(self, statement: Select | Insert | Update):
        self.statement = statement
        self.columns = tuple(column.name for column in statement.exported_columns)
        """The names of a row's values, in order."""
        self._compiled: weakref.WeakKeyDictionary[Dialect, _Compiled] = weakref.WeakKeyDictionary()

    def rows(self, conn: Connection, params: dict[str, Any]) -> list[tuple]:
        return self._execute(conn, params, lambda cursor: cursor.fetchall())

    def first(self, conn: Connection, params: dict[str, Any]) -> tuple | None:
        return self._execute(conn, params, lambda cursor: cursor.fetchone())

    def run(self, conn: Connection, params: dict[str, Any]) -> None:
        self._execute(conn, params, lambda _cursor: None)

    def _execute(self, conn: Connection, params: dict[str, Any], fetch: Callable[[Any], Any]) -> Any:
        compiled = self._compiled.get(conn.dialect)
        first_run = compiled is None
        if compiled is None:
            compiled = self._compile(conn.dialect)
        sql, parameters = compiled.sql, compiled.parameters(params)
        pooled = conn.connection
        cursor = pooled.cursor()
        try:
            for listener in conn.dispatch.before_cursor_execute:
                sql, parameters = listener(conn, cursor, sql, parameters, None, False)
            cursor.execute(sql, parameters)
            if first_run:
                self._check_result_types(conn.dialect, cursor.description)
                self._compiled[conn.dialect] = compiled
            return fetch(cursor)
        except conn.dialect.loaded_dbapi.Error as error:
            lost = conn.dialect.is_disconnect(error, pooled.dbapi_connection, cursor)
            if lost:
                conn.invalidate(error)
            raise DBAPIError.instance(
                sql,
                parameters,
                error,
                conn.dialect.loaded_dbapi.Error,
                connection_invalidated=lost,
                dialect=conn.dialect,
            ) from error
        finally:
            cursor.close()

    def _check_result_types(self, dialect: Dialect, description) -> None:
        """Refuse a column whose type would convert the driver's value: a Numeric on PostgreSQL,
        say. Which do depends on the type the driver reports for it, so this is checked on the
        statement's first run on a dialect, before it is remembered as compiled."""
        for column, described in zip(self.statement.exported_columns, description or ()):
            if column.type.dialect_impl(dialect).result_processor(dialect, described[1]) is not None:
                raise TypeError(f"{column} converts what the driver returns on {dialect.name}: keep it on Core")

    def _compile(self, dialect: Dialect) -> _Compiled:
        compiled = self.statement.compile(dialect=dialect)
        if compiled.post_compile_params or compiled.escaped_bind_names:
            raise TypeError(f"{self.statement} has binds SQLAlchemy rewrites as it runs them: keep it on Core")
        processors = []
        for name, bind in compiled.binds.items():
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                processors.append((name, process))
        return _Compiled(
            sql=compiled.string,
            positions=tuple(compiled.positiontup) if compiled.positiontup is not None else None,
            defaults={name: bind.effective_value for name, bind in compiled.binds.items() if not bind.required},
            processors=tuple(processors),
        )
