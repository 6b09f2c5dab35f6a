-- URLs a feed was known by before a permanent move (301/308, itunes:new-feed-url) or before it
-- was merged into the feed that already had its new URL. `add` of an alias answers `exists`.
CREATE TABLE feed_aliases (
  url      text PRIMARY KEY CHECK (length(url) <= 8192),
  feed_id  bigint NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
  added_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feed_aliases_feed_id ON feed_aliases (feed_id);
