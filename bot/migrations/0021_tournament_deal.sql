-- Counterpart: PostgreSQL 0017_tournament_deal.sql.
-- Same-deal tournament rounds (issue 55): a tournament's `deal`, 'own' (every table its own deal, as before) or
-- 'same' (every table of a round plays the same deal with per-seat streams). Stored tournaments keep 'own'.
ALTER TABLE tournaments ADD COLUMN deal TEXT NOT NULL DEFAULT 'own' CHECK (deal IN ('own', 'same'));
