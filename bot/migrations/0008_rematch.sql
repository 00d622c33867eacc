-- Counterpart: PostgreSQL 0004_rematch.sql.
-- A finished table's Rematch: the id of the table it opened (NULL until someone presses Rematch), so pressing it
-- again, or on another copy of the result, never opens a second table.
ALTER TABLE games ADD COLUMN rematch_id INTEGER;
