-- 0009: which game each game and campaign is (issue 29, the game seam).
--
-- The platform now serves several games (Siege of the Citadel first; more
-- to come), each a folder implementing one trait. A stored game's options,
-- setup, commands and result are that game's own JSON, read back by that
-- game alone, so every record names its game by catalogue id. Every row
-- written before this migration is a Siege game or campaign.
--
-- SQLite twin of ../postgres/0009_game_kinds.sql.

ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT 'siege';
ALTER TABLE campaigns ADD COLUMN kind TEXT NOT NULL DEFAULT 'siege';
