-- 0004: abandoned games end.
--
-- A game nobody plays any more used to stay "unfinished" for ever: every
-- server start replayed it into memory again, and it counted against the
-- live games. Now a game with no player connected for long enough (a
-- configured limit: days for a started game, hours for a lobby that never
-- started) is closed as abandoned, and restore skips it.
--
-- `active_at` is when a player was last connected to the game, kept by
-- the server: written when the last player leaves and from time to time
-- while players are connected (never on every message). Abandonment is
-- measured from it. Bots playing for absent players do not count as
-- activity: a game nobody is connected to is not being played by anyone.
--
-- An abandoned game is finished (`finished_at` set, so every "unfinished"
-- query and the partial index already leave it out) with no `result`;
-- `abandoned_at` says why it ended, so lists and replays can tell an
-- abandoned game from a played one.
--
-- Existing rows get the last sign of life the table already holds: their
-- last command, else their start, else their creation. A game played
-- yesterday is therefore not abandoned by the first start after this
-- migration, whatever its age.

ALTER TABLE games ADD COLUMN active_at INTEGER NOT NULL DEFAULT 0;

UPDATE games SET active_at = COALESCE(
    (SELECT MAX(at) FROM commands WHERE commands.code = games.code),
    started_at,
    created_at
);

-- NULL unless the game was closed as abandoned (then equal to finished_at).
ALTER TABLE games ADD COLUMN abandoned_at INTEGER;
