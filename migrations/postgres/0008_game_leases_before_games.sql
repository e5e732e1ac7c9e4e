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
-- Postgres twin of ../sqlite/0008_game_leases_before_games.sql.

ALTER TABLE game_leases DROP CONSTRAINT game_leases_code_fkey;
