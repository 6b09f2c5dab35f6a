-- The server process (pg_backend_pid) of the crawler connection that holds a feed's lease;
-- meaningful only while lease_until is set. A lease whose holder is no longer connected (the
-- crawler was killed, or lost its connection) is void at once instead of at lease_until, so the
-- next crawl takes over the feeds a dead one had claimed.
ALTER TABLE feeds ADD COLUMN lease_holder integer;
