-- 0001: games, their commands, and who plays them.
--
-- Citadel is event-sourced. A game row holds only what cannot be derived:
-- the creation options, the seed of the dice and bots, the lobby, and the
-- rules setup once the game starts. Everything that happens afterwards is a
-- row in `commands`; replaying them through the (deterministic) rules
-- rebuilds the game exactly, so after a crash the server reloads every
-- unfinished game from these two tables.
--
-- This is the SQLite twin of ../postgres/0001_games.sql: the same tables,
-- columns and keys, so one set of queries serves both. Ids are TEXT, times
-- are INTEGER (64-bit) milliseconds since the Unix epoch, documents the
-- server owns are JSON kept as TEXT, and the u64 seed is stored as the
-- INTEGER with the same bit pattern. Tables are STRICT so a value of the
-- wrong type is an error, as it would be in Postgres. SQLite's default
-- BINARY collation orders keys bytewise, like Rust and Postgres' "C".

CREATE TABLE games (
    -- The join code players type; the natural key.
    code        TEXT PRIMARY KEY,
    -- The creation options (JSON).
    options     TEXT NOT NULL,
    -- The u64 seed, as the i64 with the same bits.
    seed        INTEGER NOT NULL,
    created_at  INTEGER NOT NULL,
    -- Seats, names, controllers, hashed seat tokens (JSON). Rewritten while
    -- players join; frozen at start.
    lobby       TEXT NOT NULL,
    -- The rules setup (JSON), NULL while the game is a lobby.
    setup       TEXT,
    started_at  INTEGER,
    -- NULL until the game ends: "unfinished" is exactly finished_at IS NULL.
    finished_at INTEGER,
    -- The result summary (JSON) once finished.
    result      TEXT,
    -- The campaign id this game is a mission of. Deliberately no foreign
    -- key: the server creates the game and the campaign document in either
    -- order, and a game outlives nothing it points to.
    campaign    TEXT
) STRICT;

-- Server start loads every unfinished game, oldest first; the partial index
-- keeps that scan proportional to the live games, not to all history.
CREATE INDEX games_unfinished ON games (created_at, code) WHERE finished_at IS NULL;

-- One accepted command. The server acknowledges a command only after its
-- row is committed, so this table is the game's durable history.
CREATE TABLE commands (
    code    TEXT NOT NULL REFERENCES games (code) ON DELETE CASCADE,
    -- The command's number in its game: 0, 1, 2, ... with no gap. The
    -- primary key rejects a repeated number; the store rejects a gap.
    idx     INTEGER NOT NULL CHECK (idx >= 0),
    -- The seat that sent it (0..=255).
    seat    INTEGER NOT NULL CHECK (seat >= 0 AND seat <= 255),
    -- The command (JSON).
    command TEXT NOT NULL,
    -- When it was accepted (milliseconds).
    at      INTEGER NOT NULL,
    -- Replay reads a game's commands in order: the primary key is the index.
    PRIMARY KEY (code, idx)
) STRICT;

-- Which account plays which seat of which game, for "my games". Guests and
-- bots have no row. The account is not a foreign key, as in the reference
-- store: the link is a listing aid, and an account's deletion should not be
-- blocked by (or erase) the games it played.
CREATE TABLE game_players (
    account_id TEXT NOT NULL,
    code       TEXT NOT NULL REFERENCES games (code) ON DELETE CASCADE,
    seat       INTEGER NOT NULL CHECK (seat >= 0 AND seat <= 255),
    -- Leading with the account serves "games of this account".
    PRIMARY KEY (account_id, code, seat)
) STRICT;
