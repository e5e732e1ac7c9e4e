-- 0002: accounts and login sessions.
--
-- Accounts are optional in Citadel (guests can play with a seat token);
-- an account lets a player find their games and campaigns again.

CREATE TABLE accounts (
    id            TEXT PRIMARY KEY,
    -- The name as the player typed it, shown back unchanged.
    name          TEXT NOT NULL,
    -- The name folded to lower case (by the store, with Unicode rules, so
    -- Postgres and SQLite agree; SQLite's lower() is ASCII-only). The
    -- unique index on it makes "Alice" and "alice" the same name, and
    -- login looks names up through it.
    name_key      TEXT NOT NULL,
    -- The password's argon2 PHC string (algorithm, parameters, salt, hash).
    password_hash TEXT NOT NULL,
    created_at    INTEGER NOT NULL
) STRICT;

CREATE UNIQUE INDEX accounts_name_key ON accounts (name_key);

-- A login session. The bearer token is never stored: only its hash, so a
-- leaked database does not leak usable sessions. Expired rows stay until
-- the server deletes them; the caller checks expires_at.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    -- Deleting an account ends its sessions.
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT;

-- For "log out everywhere" and for the cascade above.
CREATE INDEX sessions_account ON sessions (account_id);
-- For purging expired sessions.
CREATE INDEX sessions_expires ON sessions (expires_at);
