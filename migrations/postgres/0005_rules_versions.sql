-- 0005: which rules made each game, checksums to verify a replay, and
-- finished games' replays kept whole.
--
-- Games are event-sourced: a game is its setup, seed and commands, and
-- the server rebuilds it by replaying them through the rules. That holds
-- only while today's rules behave as the ones that recorded the commands.
-- A rule fix or a content change can make a stored command mean
-- something else, or nothing. So each game now says which rules made it,
-- each command batch says where the game stood after it, and a finished
-- game keeps its replay as it was seen, so that showing it never needs
-- the engine again. docs/STORAGE.md has the policy built on these.
--
-- Postgres twin of ../sqlite/0005_rules_versions.sql.

-- The rules version a game was made with: the engine's hand-bumped
-- behaviour number (citadel_rules::ENGINE_VERSION) and the hash of the
-- content files it loaded. Rows older than this migration were made by
-- an engine that recorded neither: they read as engine 0, content
-- 'legacy', which no build ever reports as its own.
ALTER TABLE games ADD COLUMN engine_version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN content_hash TEXT NOT NULL DEFAULT 'legacy';

-- A checksum of the whole game state after the batch this command ended
-- (NULL on the other commands of a batch, and on rows older than this).
-- A server on other rules replays the commands and compares; the first
-- difference means the game cannot continue on those rules.
ALTER TABLE commands ADD COLUMN checksum TEXT;

-- A finished game's replay: the part shared by every step (the setup
-- without its seed, the map) as JSON ...
CREATE TABLE replays (
    code        TEXT COLLATE "C" PRIMARY KEY REFERENCES games (code) ON DELETE CASCADE,
    header      TEXT NOT NULL,
    -- How many rows replay_steps holds for it: the replay endpoint's
    -- "total_steps" without a count over the steps.
    total_steps BIGINT NOT NULL CHECK (total_steps >= 0)
);

-- ... and each step as a spectator saw it (the command, its redacted
-- events with their seqs, the view after it) as JSON, one row per step so
-- that a page of the replay reads only its rows.
CREATE TABLE replay_steps (
    code TEXT COLLATE "C" NOT NULL REFERENCES replays (code) ON DELETE CASCADE,
    idx  BIGINT NOT NULL CHECK (idx >= 0),
    step TEXT NOT NULL,
    PRIMARY KEY (code, idx)
);
