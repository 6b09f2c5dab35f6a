-- What each host can take, as the crawler learned it (fetch::HostPace): the number of transfers
-- in flight it ended the last run at, so that the next run, and every crawler sharing this
-- database, starts there. With it, the figures of the run that last asked the host, for
-- `stats --json`.
CREATE TABLE host_paces (
  host                 text PRIMARY KEY,
  concurrency          double precision NOT NULL,
  run_id               bigint REFERENCES crawl_runs (id) ON DELETE SET NULL,
  requests             bigint NOT NULL DEFAULT 0,
  throttled            bigint NOT NULL DEFAULT 0,
  overloaded           bigint NOT NULL DEFAULT 0,
  peak                 integer NOT NULL DEFAULT 0,
  mean_latency_seconds double precision NOT NULL DEFAULT 0,
  updated_at           timestamptz NOT NULL
);
CREATE INDEX host_paces_run_idx ON host_paces (run_id);
CREATE INDEX host_paces_updated_idx ON host_paces (updated_at DESC);
