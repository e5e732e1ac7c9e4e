-- 0008: a new game's lease is taken before the game is stored.
--
-- 0007 made game_leases.code a foreign key to games, so a node could take
-- a new game's lease only after storing the game. In between, another node
-- starting up (restoring every unfinished game it can lease) could take
-- the new game's lease and run it too, and the node that made it failed.
-- Now the lease comes first, and a lease may name a game not stored (yet,
-- or ever: its node died in between; such a lease runs out and the
-- takeover scan clears it). docs/SCALING.md describes it.
--
-- SQLite cannot drop a constraint: the table is made again without it
-- (and STRICT, like the other tables), its rows copied over.
--
-- SQLite twin of ../postgres/0008_game_leases_before_games.sql.

CREATE TABLE game_leases_0008 (
    code       TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT;

INSERT INTO game_leases_0008 (code, owner, expires_at)
    SELECT code, owner, expires_at FROM game_leases;

DROP TABLE game_leases;

ALTER TABLE game_leases_0008 RENAME TO game_leases;

CREATE INDEX game_leases_owner ON game_leases (owner);
CREATE INDEX game_leases_expiry ON game_leases (expires_at);
