-- 0006: a version on each campaign, for writers on several nodes.
--
-- A campaign document is changed by read-modify-write (a join, the next
-- mission, a finished mission's result). One process used to serialize
-- those under a lock of its own; several processes on one database
-- cannot. Now each write is conditional: UPDATE ... WHERE version = the
-- version read, setting version + 1. A writer whose row moved on meanwhile
-- writes nothing, reads the campaign again and redoes its change.
-- docs/STORAGE.md describes it.
--
-- SQLite twin of ../postgres/0006_campaign_versions.sql.

-- Rows older than this migration start at 0, like a new campaign.
ALTER TABLE campaigns ADD COLUMN version INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0);
