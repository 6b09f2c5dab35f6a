-- The crawl list: every feed podcrawl knows, with the state of its fetching.
CREATE TABLE feeds (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  url           text NOT NULL UNIQUE,
  status        text NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'failing', 'gone', 'removed')),
  added_at      timestamptz NOT NULL,
  last_fetch_at timestamptz,
  -- NULL: due now (a feed never fetched is due at once).
  next_fetch_at timestamptz,
  -- A crawler that claimed the feed holds it until then; NULL when nobody does.
  lease_until   timestamptz,
  last_status   integer,
  last_error    text NOT NULL DEFAULT '',
  -- Consecutive failures; 0 after a success.
  failures      integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
  etag          text NOT NULL DEFAULT '',
  last_modified text NOT NULL DEFAULT '',
  show_id       bigint
);

-- What a crawl looks for: feeds that may be fetched, soonest first.
CREATE INDEX feeds_due_idx ON feeds (next_fetch_at NULLS FIRST)
  WHERE status IN ('active', 'failing');

-- Every fetch attempt, for `stats` and for diagnosing a feed.
CREATE TABLE fetches (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  feed_id      bigint NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
  fetched_at   timestamptz NOT NULL,
  outcome      text NOT NULL CHECK (outcome IN ('ok', 'not_modified', 'failed', 'gone')),
  http_status  integer,
  error        text NOT NULL DEFAULT '',
  bytes        bigint,
  new_episodes integer NOT NULL DEFAULT 0
);

CREATE INDEX fetches_feed_idx ON fetches (feed_id, fetched_at DESC);

-- One row per `crawl` invocation; finished_at stays NULL while it runs (or if it died).
CREATE TABLE crawl_runs (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  started_at   timestamptz NOT NULL,
  finished_at  timestamptz,
  fetched      bigint NOT NULL DEFAULT 0,
  not_modified bigint NOT NULL DEFAULT 0,
  failed       bigint NOT NULL DEFAULT 0,
  new_episodes bigint NOT NULL DEFAULT 0
);

CREATE INDEX crawl_runs_started_idx ON crawl_runs (started_at DESC, id DESC);
