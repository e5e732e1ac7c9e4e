-- 0011: tables listed in the lobby (issue 31, item 1).
--
-- A table made with `listed: true` is shown to everyone: while it waits
-- for players in the list of open tables (`GET /api/lobby`), once it
-- plays in the list of live games to watch. Every other table stays
-- private: only its code finds it. Rows written before are private.
--
-- SQLite twin of ../postgres/0011_listed_games.sql.

ALTER TABLE games ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;

-- The lobby's two lists read only listed games that have not ended: the
-- open tables newest first, the live games most recently active first.
CREATE INDEX games_listed_open ON games (created_at)
    WHERE listed = 1 AND started_at IS NULL AND finished_at IS NULL AND abandoned_at IS NULL;
CREATE INDEX games_listed_live ON games (active_at)
    WHERE listed = 1 AND started_at IS NOT NULL AND finished_at IS NULL AND abandoned_at IS NULL;
