-- Cover art, one row per image URL however many shows use it. The crawler asks each URL again
-- (conditionally) when next_fetch_at comes; content_hash is the SHA-1 of the image file last
-- fetched, and names its re-encoded files (<hash>-<width>.webp), so that one file serves every
-- URL with the same bytes. renditions: [{"width", "height", "bytes"}], narrowest first; kept
-- through later failures, so that a host that goes away leaves the picture as it was.
CREATE TABLE artwork (
  id            bigserial PRIMARY KEY,
  url           text NOT NULL UNIQUE,
  etag          text NOT NULL DEFAULT '',
  last_modified text NOT NULL DEFAULT '',
  content_hash  text NOT NULL DEFAULT '',
  width         integer NOT NULL DEFAULT 0,
  height        integer NOT NULL DEFAULT 0,
  renditions    jsonb NOT NULL DEFAULT '[]',
  error         text NOT NULL DEFAULT '',
  downloads     bigint NOT NULL DEFAULT 0,
  fetched_at    timestamptz,
  next_fetch_at timestamptz NOT NULL DEFAULT '-infinity'
);
CREATE INDEX artwork_due_idx ON artwork (next_fetch_at);
CREATE INDEX artwork_content_idx ON artwork (content_hash) WHERE content_hash <> '';
