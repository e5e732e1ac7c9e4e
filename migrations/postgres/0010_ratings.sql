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
-- Postgres twin of ../sqlite/0010_ratings.sql.

CREATE TABLE ratings (
    -- The game (catalogue id).
    kind       TEXT NOT NULL,
    -- Who: `account:<id>` or `bot:<label>`.
    player     TEXT NOT NULL,
    -- The name shown, as of the last rated game.
    name       TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL CHECK (games >= 0),
    wins       BIGINT NOT NULL CHECK (wins >= 0),
    draws      BIGINT NOT NULL CHECK (draws >= 0),
    losses     BIGINT NOT NULL CHECK (losses >= 0),
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (kind, player)
);

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
    at        BIGINT NOT NULL,
    rating    DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (kind, player, code)
);

CREATE INDEX rating_history_player ON rating_history (player, kind, at);

-- The games whose ratings were applied.
CREATE TABLE rated_games (
    code TEXT PRIMARY KEY,
    at   BIGINT NOT NULL
);
