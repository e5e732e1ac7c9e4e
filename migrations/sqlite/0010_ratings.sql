-- 0010: ratings (issue 31): Glicko-2 per game kind, for accounts and bots.
--
-- A rated game, once finished, moves the rating of every rated seat
-- (crates/ratings; docs/RATINGS.md). `rated_games` makes that happen once
-- per game even when two nodes or a restart report the same end: its
-- primary key is the game, written in the transaction that moves the
-- ratings. A rating row is changed only from the number of games it was
-- read with (optimistic concurrency), so two games ending at once for one
-- player never lose an update.
--
-- SQLite twin of ../postgres/0010_ratings.sql.

CREATE TABLE ratings (
    -- The game (catalogue id).
    kind       TEXT NOT NULL,
    -- Who: `account:<id>` or `bot:<label>`.
    player     TEXT NOT NULL,
    -- The name shown, as of the last rated game.
    name       TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL CHECK (games >= 0),
    wins       INTEGER NOT NULL CHECK (wins >= 0),
    draws      INTEGER NOT NULL CHECK (draws >= 0),
    losses     INTEGER NOT NULL CHECK (losses >= 0),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (kind, player)
) STRICT;

-- The leaderboard of a game: best rating first.
CREATE INDEX ratings_board ON ratings (kind, rating DESC);
-- A profile: every game's rating of one player.
CREATE INDEX ratings_player ON ratings (player);

-- Each rated game's effect on each rated seat, for the profile's chart.
CREATE TABLE rating_history (
    kind      TEXT NOT NULL,
    player    TEXT NOT NULL,
    -- The game; not a foreign key, so history survives pruned games.
    code      TEXT NOT NULL,
    at        INTEGER NOT NULL,
    rating    REAL NOT NULL,
    deviation REAL NOT NULL,
    PRIMARY KEY (kind, player, code)
) STRICT;

CREATE INDEX rating_history_player ON rating_history (player, kind, at);

-- The games whose ratings were applied.
CREATE TABLE rated_games (
    code TEXT PRIMARY KEY,
    at   INTEGER NOT NULL
) STRICT;
