-- 0007: which node runs each live game (cluster mode).
--
-- With several Citadel processes ("nodes") on one database, each live
-- game must run on exactly one of them: two tasks playing the same game
-- would each append commands and deliver different futures. A node runs a
-- game only while it holds the game's lease: a row naming the node and
-- when the lease runs out. A node takes a lease with one conditional
-- write (insert, or update only if the row is its own or has expired),
-- renews all of its leases every few seconds with one UPDATE, and deletes
-- a lease when the game leaves its memory. A node that dies stops
-- renewing; once its leases expire, other nodes take the games over and
-- restore them from their commands. docs/SCALING.md describes it.
--
-- A single server (no NATS) never writes this table.
--
-- Times are the nodes' wall clocks in milliseconds (the lease length must
-- exceed any clock skew between nodes by a wide margin).
--
-- Postgres twin of ../sqlite/0007_game_leases.sql.

CREATE TABLE game_leases (
    code       TEXT COLLATE "C" PRIMARY KEY REFERENCES games (code) ON DELETE CASCADE,
    -- The node id (--node-id) that runs the game.
    owner      TEXT NOT NULL,
    -- When the lease runs out unless renewed (milliseconds).
    expires_at BIGINT NOT NULL
);

-- Renewal and release go by owner; the takeover scan by expiry.
CREATE INDEX game_leases_owner ON game_leases (owner);
CREATE INDEX game_leases_expiry ON game_leases (expires_at);
