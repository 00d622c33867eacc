"""Read a migrated database's schema back from the database itself (SQLite: ``sqlite_master`` and the ``PRAGMA``
tables; PostgreSQL: ``information_schema`` and ``pg_catalog``) into one backend-neutral model, and list every way
two such schemas differ, each as one line that names the table, column or index."""
from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

import asyncpg


class Kind(Enum):
    """What a declared type holds, the same on both backends."""
    INTEGER = "integer"
    REAL = "real"
    TEXT = "text"
    BOOL = "bool"
    # PostgreSQL's REAL is 4 bytes (SQLite's is 8): a time.time() stored in it comes back tens of seconds off, so
    # it is its own kind and never matches SQLite's REAL (see postgres/0001_init.sql).
    FLOAT4 = "float4"


SQLITE_KINDS = {"INTEGER": Kind.INTEGER, "INT": Kind.INTEGER, "BIGINT": Kind.INTEGER, "SMALLINT": Kind.INTEGER,
                "REAL": Kind.REAL, "DOUBLE": Kind.REAL, "DOUBLE PRECISION": Kind.REAL, "FLOAT": Kind.REAL,
                "TEXT": Kind.TEXT, "VARCHAR": Kind.TEXT, "CHAR": Kind.TEXT, "BOOLEAN": Kind.BOOL}
POSTGRES_KINDS = {"integer": Kind.INTEGER, "bigint": Kind.INTEGER, "smallint": Kind.INTEGER,
                  "double precision": Kind.REAL, "real": Kind.FLOAT4, "text": Kind.TEXT,
                  "character varying": Kind.TEXT, "character": Kind.TEXT, "boolean": Kind.BOOL}
POSTGRES_ON_DELETE = {"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}


@dataclass(frozen=True)
class Column:
    kind: Kind
    not_null: bool
    default: str | None  # normalised (see ``normalise_default``); None: no default
    generated: bool  # the database hands out its values (SQLite AUTOINCREMENT, PostgreSQL identity or serial)
    declared: str = field(compare=False)  # the backend's own type name, for messages


@dataclass(frozen=True)
class Index:
    table: str
    columns: tuple[str, ...]
    unique: bool
    partial: bool


@dataclass(frozen=True)
class ForeignKey:
    columns: tuple[str, ...]
    parent: str
    parent_columns: tuple[str, ...]
    on_delete: str


@dataclass
class Table:
    columns: dict[str, Column] = field(default_factory=dict)  # in the table's column order
    primary_key: tuple[str, ...] = ()
    unique: set[tuple[str, ...]] = field(default_factory=set)  # UNIQUE constraints (their indexes are unnamed)
    foreign_keys: set[ForeignKey] = field(default_factory=set)
    checks: set[str] = field(default_factory=set)  # CHECK constraints, normalised (see ``normalise_check``)


@dataclass
class Schema:
    backend: str
    tables: dict[str, Table] = field(default_factory=dict)
    indexes: dict[str, Index] = field(default_factory=dict)  # named indexes (CREATE INDEX) by name


def kind_of(declared: str, kinds: dict[str, Kind]) -> Kind:
    base = re.sub(r"\s*\(.*\)$", "", declared).strip()  # VARCHAR(20) -> VARCHAR
    if base not in kinds:
        raise AssertionError(f"unknown column type {declared!r}: add it to the kinds in tests/schemas.py")
    return kinds[base]


CAST = re.compile(r"::[a-z][a-z0-9_]*(?: [a-z][a-z0-9_]*)*(\[\])?")  # PostgreSQL's ::text, ::character varying[]


def normalise_default(text: str | None) -> str | None:
    """``'{}'::text`` -> ``'{}'``, ``'-1'::integer`` -> ``-1``, ``(0)`` -> ``0``, ``0.0`` -> ``0``, NULL -> None."""
    if text is None:
        return None
    value = CAST.sub("", text.strip())
    while re.fullmatch(r"\([^()]*\)", value):
        value = value[1:-1].strip()
    number = re.fullmatch(r"'?(-?\d+(?:\.\d+)?)'?", value)
    if number:
        parsed = float(number.group(1))
        return str(int(parsed)) if parsed.is_integer() else repr(parsed)
    if value.upper() in ("NULL", "TRUE", "FALSE", "CURRENT_TIMESTAMP"):
        return None if value.upper() == "NULL" else value.upper()
    return value


def normalise_check(text: str) -> str:
    """One spelling for both backends: ``CHECK (status IN ('a', 'b'))`` (SQLite) and PostgreSQL's
    ``CHECK ((status = ANY (ARRAY['a'::text, 'b'::text])))`` both become ``status IN ('a', 'b')`` (values sorted);
    any other condition becomes its tokens without casts or parentheses, lower case outside string literals."""
    body = CAST.sub("", re.sub(r"^\s*CHECK\s*", "", text, flags=re.IGNORECASE))
    body = re.sub(r"=\s*ANY\s*\(+ARRAY\[([^\]]*)\]\)+", r"IN (\1)", body, flags=re.IGNORECASE)
    listed = re.fullmatch(r"[\s(]*(\w+)\)?\s+IN\s*\(([^()]*)\)[\s)]*", body, re.IGNORECASE)
    if listed:
        values = sorted(re.findall(r"'((?:[^']|'')*)'", listed.group(2)))
        return f"{listed.group(1)} IN ({', '.join(repr(v) for v in values)})"
    # PostgreSQL puts parentheses around every sub-expression; dropping them all could only hide a difference in
    # grouping, which no migration is likely to get wrong in one series only.
    tokens = re.findall(r"'(?:[^']|'')*'|\w+|[<>=!|]+|[^\s()]", body)
    return " ".join(t if t.startswith("'") else t.lower() for t in tokens)


def sqlite_checks(sql: str) -> set[str]:
    """The CHECK constraints in a table's CREATE statement (SQLite keeps the columns ADD COLUMN appended)."""
    found = set()
    for start in (m.end() - 1 for m in re.finditer(r"\bCHECK\s*\(", sql, re.IGNORECASE)):
        depth, quoted = 0, False
        for end in range(start, len(sql)):
            quoted ^= sql[end] == "'"
            depth += 0 if quoted else {"(": 1, ")": -1}.get(sql[end], 0)
            if depth == 0:
                found.add(normalise_check(sql[start:end + 1]))
                break
    return found


# Bookkeeping of the backend itself, not of the project: SQLite's AUTOINCREMENT counters and statistics.
SQLITE_INTERNAL = re.compile(r"sqlite_.*")


def read_sqlite(path: Path) -> Schema:
    schema = Schema("SQLite")
    with closing(sqlite3.connect(path)) as conn:
        tables = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall()
        for name, sql in tables:
            if not SQLITE_INTERNAL.fullmatch(name):
                schema.tables[name] = _sqlite_table(conn, name, sql)
                _sqlite_indexes(conn, name, schema)
    return schema


def _sqlite_table(conn: sqlite3.Connection, name: str, sql: str) -> Table:
    table = Table()
    info = conn.execute(f"PRAGMA table_info({name})").fetchall()  # cid, name, type, notnull, dflt_value, pk
    table.primary_key = tuple(c[1] for c in sorted((c for c in info if c[5]), key=lambda c: c[5]))
    for _, column, declared, not_null, default, _ in info:
        # A lone INTEGER PRIMARY KEY is the rowid: never NULL, though table_info does not say NOT NULL.
        rowid = table.primary_key == (column,) and declared.upper() == "INTEGER"
        table.columns[column] = Column(kind_of(declared.upper(), SQLITE_KINDS), bool(not_null) or rowid,
                                       normalise_default(default), rowid and "AUTOINCREMENT" in sql.upper(),
                                       declared)
    table.checks = sqlite_checks(sql)
    for _, unique, origin, columns, _ in _sqlite_index_list(conn, name):
        if origin == "u" and unique:
            table.unique.add(columns)
    foreign = conn.execute(f"PRAGMA foreign_key_list({name})").fetchall()  # id, seq, table, from, to, _, del, _
    for key in sorted({f[0] for f in foreign}):
        parts = sorted((f for f in foreign if f[0] == key), key=lambda f: f[1])
        parent = parts[0][2]
        parent_columns = tuple(f[4] for f in parts)
        if None in parent_columns:  # REFERENCES parent without columns: its primary key
            parent_pk = conn.execute(f"PRAGMA table_info({parent})").fetchall()
            parent_columns = tuple(c[1] for c in sorted((c for c in parent_pk if c[5]), key=lambda c: c[5]))
        table.foreign_keys.add(ForeignKey(tuple(f[3] for f in parts), parent, parent_columns, parts[0][6]))
    return table


def _sqlite_index_list(conn: sqlite3.Connection,
                       table: str) -> list[tuple[str, bool, str, tuple[str, ...], bool]]:
    """(name, unique, origin 'c' CREATE INDEX / 'u' UNIQUE / 'pk', columns, partial) of each index on ``table``."""
    found = []
    for _, index, unique, origin, partial in conn.execute(f"PRAGMA index_list({table})").fetchall():
        info = conn.execute(f"PRAGMA index_info({index})").fetchall()  # seqno, cid, name
        columns = tuple(c[2] or "<expression>" for c in sorted(info))
        found.append((index, bool(unique), origin, columns, bool(partial)))
    return found


def _sqlite_indexes(conn: sqlite3.Connection, table: str, schema: Schema) -> None:
    for index, unique, origin, columns, partial in _sqlite_index_list(conn, table):
        if origin == "c":
            schema.indexes[index] = Index(table, columns, unique, partial)


# Bookkeeping of the project's PostgreSQL backend only: the applied migrations (SQLite keeps that number in
# PRAGMA user_version, which is no table), so it is left out of the comparison.
POSTGRES_BOOKKEEPING = {"schema_migrations"}

PG_COLUMNS = """SELECT c.table_name, c.column_name, c.data_type, c.is_nullable = 'NO', c.column_default,
                       c.is_identity = 'YES'
                FROM information_schema.columns c JOIN information_schema.tables t
                  ON t.table_schema = c.table_schema AND t.table_name = c.table_name
                WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
                ORDER BY c.table_name, c.ordinal_position"""
# Every index with its columns in order, and the constraint it backs ('p' primary key, 'u' UNIQUE; NULL: an index
# made by CREATE INDEX).
PG_INDEXES = """SELECT t.relname, i.relname, x.indisunique, x.indpred IS NOT NULL, con.contype::text,
                       ARRAY(SELECT coalesce(a.attname, '<expression>')
                             FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
                             LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
                             ORDER BY k.n)
                FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
                JOIN pg_namespace ns ON ns.oid = t.relnamespace
                LEFT JOIN pg_constraint con ON con.conindid = x.indexrelid AND con.contype IN ('p', 'u')
                WHERE ns.nspname = 'public'"""
PG_FOREIGN_KEYS = """SELECT t.relname, p.relname, con.confdeltype::text,
                            ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, n)
                                  JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
                                  ORDER BY k.n),
                            ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, n)
                                  JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum
                                  ORDER BY k.n)
                     FROM pg_constraint con JOIN pg_class t ON t.oid = con.conrelid
                     JOIN pg_class p ON p.oid = con.confrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
                     WHERE ns.nspname = 'public' AND con.contype = 'f'"""
PG_CHECKS = """SELECT t.relname, pg_get_constraintdef(con.oid)
               FROM pg_constraint con JOIN pg_class t ON t.oid = con.conrelid
               JOIN pg_namespace ns ON ns.oid = t.relnamespace
               WHERE ns.nspname = 'public' AND con.contype = 'c'"""


async def read_postgres(url: str) -> Schema:
    schema = Schema("PostgreSQL")
    conn = await asyncpg.connect(url)
    try:
        for table, column, declared, not_null, default, identity in await conn.fetch(PG_COLUMNS):
            if table in POSTGRES_BOOKKEEPING:
                continue
            serial = default is not None and default.startswith("nextval(")
            schema.tables.setdefault(table, Table()).columns[column] = Column(
                kind_of(declared, POSTGRES_KINDS), not_null, None if serial else normalise_default(default),
                identity or serial, declared)
        for table, index, unique, partial, constraint, columns in await conn.fetch(PG_INDEXES):
            if table in POSTGRES_BOOKKEEPING:
                continue
            if constraint == "p":
                schema.tables[table].primary_key = tuple(columns)
            elif constraint == "u":
                schema.tables[table].unique.add(tuple(columns))
            else:
                schema.indexes[index] = Index(table, tuple(columns), unique, partial)
        for table, parent, on_delete, columns, parent_columns in await conn.fetch(PG_FOREIGN_KEYS):
            schema.tables[table].foreign_keys.add(
                ForeignKey(tuple(columns), parent, tuple(parent_columns), POSTGRES_ON_DELETE[on_delete]))
        for table, check in await conn.fetch(PG_CHECKS):
            if table not in POSTGRES_BOOKKEEPING:
                schema.tables[table].checks.add(normalise_check(check))
    finally:
        await conn.close()
    return schema


def differences(left: Schema, right: Schema) -> list[str]:
    """Every way ``right`` differs from ``left``, one line each; empty when they agree."""
    found = [f"table {name}: only in {owner.backend}" for owner, other in ((left, right), (right, left))
             for name in sorted(owner.tables.keys() - other.tables.keys())]
    for name in sorted(left.tables.keys() & right.tables.keys()):
        found += _table_differences(name, left.tables[name], right.tables[name], left.backend, right.backend)
    found += [f"index {name} on {owner.indexes[name].table} {_list(owner.indexes[name].columns)}: only in "
              f"{owner.backend}" for owner, other in ((left, right), (right, left))
              for name in sorted(owner.indexes.keys() - other.indexes.keys())]
    for name in sorted(left.indexes.keys() & right.indexes.keys()):
        a, b = left.indexes[name], right.indexes[name]
        if a != b:
            found.append(f"index {name}: {_index(a)} in {left.backend}, {_index(b)} in {right.backend}")
    return found


def _table_differences(name: str, a: Table, b: Table, left: str, right: str) -> list[str]:
    found = [f"{name}.{column}: only in {backend}" for owner, other, backend in ((a, b, left), (b, a, right))
             for column in owner.columns if column not in other.columns]
    for column in (c for c in a.columns if c in b.columns):
        x, y = a.columns[column], b.columns[column]
        where = f"{name}.{column}"
        if x.kind != y.kind:
            found.append(f"{where}: type {x.kind.value} ({left} {x.declared}) vs {y.kind.value} "
                         f"({right} {y.declared})")
        if x.not_null != y.not_null:
            found.append(f"{where}: {_nullability(x)} in {left}, {_nullability(y)} in {right}")
        if x.default != y.default:
            found.append(f"{where}: default {x.default or '(none)'} in {left}, {y.default or '(none)'} in {right}")
        if x.generated != y.generated:
            found.append(f"{where}: {_generated(x)} in {left}, {_generated(y)} in {right}")
    if a.primary_key != b.primary_key:
        found.append(f"{name}: primary key {_list(a.primary_key)} in {left}, {_list(b.primary_key)} in {right}")
    found += [f"{name}: UNIQUE {_list(columns)} only in {backend}" for owner, other, backend in
              ((a, b, left), (b, a, right)) for columns in sorted(owner.unique - other.unique)]
    found += [f"{name}: foreign key {_list(key.columns)} -> {key.parent} {_list(key.parent_columns)} ON DELETE "
              f"{key.on_delete} only in {backend}" for owner, other, backend in ((a, b, left), (b, a, right))
              for key in sorted(owner.foreign_keys - other.foreign_keys, key=repr)]
    found += [f"{name}: CHECK {check} only in {backend}" for owner, other, backend in ((a, b, left), (b, a, right))
              for check in sorted(owner.checks - other.checks)]
    return found


def _list(columns: tuple[str, ...]) -> str:
    return f"({', '.join(columns)})"


def _index(index: Index) -> str:
    return (f"{'UNIQUE ' if index.unique else ''}on {index.table} {_list(index.columns)}"
            f"{' (partial)' if index.partial else ''}")


def _nullability(column: Column) -> str:
    return "NOT NULL" if column.not_null else "nullable"


def _generated(column: Column) -> str:
    return "values generated by the database" if column.generated else "values given by the code"
