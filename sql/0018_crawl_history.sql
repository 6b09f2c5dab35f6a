-- The crawl history behind `podcrawl report`: what each run saw, and the same figures rolled up
-- per hour and per host and hour. One row per run, per hour and per host the crawl asked in that
-- hour, never per fetch; each crawl deletes the rows older than [crawl] history_days.
--
-- Every table has the same figures: fetches by how they ended (store::FetchKind), new episodes,
-- bytes received, and latencies counted in logarithmic buckets (store::latency_bucket), which
-- add up element by element, so an hour written by several runs still yields its percentiles.

-- Element-wise sum of two bucket arrays (the shorter one padded with zeros).
CREATE FUNCTION podcrawl_buckets_add(a bigint[], b bigint[]) RETURNS bigint[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(coalesce(x, 0) + coalesce(y, 0) ORDER BY n), '{}')
  FROM unnest(a, b) WITH ORDINALITY AS t(x, y, n)
$$;

-- The figures' columns, which the three tables below copy; it never holds a row.
CREATE TABLE crawl_figures (
  ok            bigint NOT NULL DEFAULT 0,
  unchanged     bigint NOT NULL DEFAULT 0,
  not_modified  bigint NOT NULL DEFAULT 0,
  deferred      bigint NOT NULL DEFAULT 0,
  network       bigint NOT NULL DEFAULT 0,
  client_error  bigint NOT NULL DEFAULT 0,
  server_error  bigint NOT NULL DEFAULT 0,
  http_other    bigint NOT NULL DEFAULT 0,
  not_a_feed    bigint NOT NULL DEFAULT 0,
  too_large     bigint NOT NULL DEFAULT 0,
  refused       bigint NOT NULL DEFAULT 0,
  gone          bigint NOT NULL DEFAULT 0,
  new_episodes  bigint NOT NULL DEFAULT 0,
  bytes         bigint NOT NULL DEFAULT 0,
  latency       bigint[] NOT NULL DEFAULT '{}'
);

CREATE TABLE crawl_run_figures (
  run_id bigint PRIMARY KEY REFERENCES crawl_runs (id) ON DELETE CASCADE,
  LIKE crawl_figures INCLUDING DEFAULTS
);

-- hour: the start of the hour (UTC) the fetches ended in.
CREATE TABLE crawl_hours (
  hour timestamptz PRIMARY KEY,
  LIKE crawl_figures INCLUDING DEFAULTS
);

-- The hosts a run keeps per hour: those with the most failures, the busiest and the slowest,
-- 200 of each, so that a crawl of a million hosts still writes a bounded number of rows.
CREATE TABLE crawl_host_hours (
  hour timestamptz NOT NULL,
  host text NOT NULL,
  LIKE crawl_figures INCLUDING DEFAULTS,
  PRIMARY KEY (hour, host)
);
