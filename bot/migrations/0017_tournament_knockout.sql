-- Counterpart: PostgreSQL 0013_tournament_knockout.sql.
-- A knockout at multiplayer tables (issue 43): format 'knockout', and `advance`, the top k of each table who go on
-- (0 for the other formats). SQLite cannot alter a CHECK constraint, and widening an IN list (every stored row still
-- passes) is the schema-text edit SQLite's ALTER TABLE page gives for loosening a constraint: the table's SQL is
-- rewritten under writable_schema, and the runner bumps schema_version in the same transaction (see sqlite.py).
ALTER TABLE tournaments ADD COLUMN advance INTEGER NOT NULL DEFAULT 0;
PRAGMA writable_schema = ON;
UPDATE sqlite_master SET sql = replace(sql, 'CHECK (format IN (''swiss'', ''roundrobin''))',
                                       'CHECK (format IN (''swiss'', ''roundrobin'', ''knockout''))')
 WHERE type = 'table' AND name = 'tournaments';
PRAGMA writable_schema = OFF;
