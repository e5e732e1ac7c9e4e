-- 0003: campaigns, their members and their history.
--
-- A campaign is a series of missions (games) between the same players with
-- standings carried from one to the next. The server owns the campaign
-- document (players, standings, next mission) and stores it whole as JSON;
-- the columns beside it are only what listing and joining need.

CREATE TABLE campaigns (
    id          TEXT PRIMARY KEY,
    -- The invite code players type to join; unique like a game code.
    code        TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    -- The campaign document (JSON), rewritten after each mission.
    state       TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    -- NULL while the campaign goes on.
    finished_at INTEGER
) STRICT;

-- Which accounts take part, for "my campaigns". As with game_players the
-- account is not a foreign key.
CREATE TABLE campaign_members (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    account_id  TEXT NOT NULL,
    -- Leading with the account serves "campaigns of this account".
    PRIMARY KEY (account_id, campaign_id)
) STRICT;

-- The finished missions in order: an append-only history like commands.
CREATE TABLE campaign_missions (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    -- Mission number from 0, contiguous (the store rejects a gap, the key a
    -- repeat).
    idx         INTEGER NOT NULL CHECK (idx >= 0),
    -- The game that played it. Not a foreign key: history should survive
    -- the pruning of old games.
    game        TEXT NOT NULL,
    -- What happened and the standings after it (JSON).
    summary     TEXT NOT NULL,
    at          INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, idx)
) STRICT;
