-- Podcasts sent with the live directory's form while [submit] review is on: each waits here,
-- resolved to its feed's URL, until the operator accepts it (`podcrawl review accept`: listed and
-- stored) or rejects it. A URL waits once, however often it is sent.
CREATE TABLE submissions (
  id bigserial PRIMARY KEY,
  url text NOT NULL UNIQUE,        -- the feed's normalized URL (crawl::resolve_feed)
  given text NOT NULL,             -- the URL as it was sent: a feed's, or its web page's
  client text NOT NULL DEFAULT '', -- the client address it came from
  submitted_at timestamptz NOT NULL DEFAULT now()
);
