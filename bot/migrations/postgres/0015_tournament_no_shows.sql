-- Tournaments that finish whoever does not show up (issue 51, SQLite 0019): seats.showed_up (the person moved or
-- took the seat back, and seats stored before count as shown), tournament_results.no_show, an entrant 'away', a
-- tournament 'checkin_closed' with checkin_remind_at (the one reminder before the deadline), and format
-- 'swiss_knockout' with swiss_rounds and cut (the Swiss stage's length, the top `cut` who go on to the knockout).
ALTER TABLE seats ADD COLUMN showed_up INTEGER NOT NULL DEFAULT 1;
ALTER TABLE tournament_results ADD COLUMN no_show INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN checkin_remind_at DOUBLE PRECISION;
ALTER TABLE tournaments ADD COLUMN swiss_rounds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN cut INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments DROP CONSTRAINT tournaments_format_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_format_check
    CHECK (format IN ('swiss', 'roundrobin', 'knockout', 'swiss_knockout'));
ALTER TABLE tournaments DROP CONSTRAINT tournaments_status_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_status_check
    CHECK (status IN ('signup', 'checkin', 'checkin_closed', 'running', 'finished', 'cancelled'));
ALTER TABLE tournament_entrants DROP CONSTRAINT tournament_entrants_status_check;
ALTER TABLE tournament_entrants ADD CONSTRAINT tournament_entrants_status_check
    CHECK (status IN ('entered', 'checked_in', 'dropped', 'away'));
