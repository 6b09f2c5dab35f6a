-- Show identity across feed URLs, unchanged bodies recognized by their hash.

-- The hash of the last body stored for the feed (core::content_hash); '' until one is.
ALTER TABLE feeds ADD COLUMN content_hash text NOT NULL DEFAULT '';

-- 'unchanged': a 200 whose body had the hash of the one stored before; only the schedule moved.
ALTER TABLE fetches DROP CONSTRAINT fetches_outcome_check;
ALTER TABLE fetches ADD CONSTRAINT fetches_outcome_check
  CHECK (outcome IN ('ok', 'not_modified', 'unchanged', 'failed', 'gone'));

-- The podcast:guid a show is known by: the one its feed publishes, else the UUIDv5 of the feed
-- URL (store::show_identity). Every feed publishing it shares the show; feed_id is the feed that
-- described the show last.
ALTER TABLE shows ADD COLUMN identity_guid text NOT NULL DEFAULT '';
CREATE INDEX shows_identity_guid_idx ON shows (identity_guid) WHERE identity_guid <> '';

-- Shows stored before this migration are known by the podcast:guid they publish; the others get
-- their derived identity at their next save.
UPDATE shows SET identity_guid = lower(btrim(podcast_guid)) WHERE btrim(podcast_guid) <> '';
