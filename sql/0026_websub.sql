-- WebSub (W3C Recommendation, 2018): the hub a feed declares (its Link headers, else its
-- atom:link rel="hub") and the topic to subscribe to there (rel="self", else the feed's URL),
-- as its latest fetch found them; empty when it declares none.
ALTER TABLE feeds ADD COLUMN websub_hub text NOT NULL DEFAULT '';
ALTER TABLE feeds ADD COLUMN websub_topic text NOT NULL DEFAULT '';
-- When a hub last delivered a notification of the feed whose signature held; the fetch that
-- follows counts the new episodes it finds as seen first by push.
ALTER TABLE feeds ADD COLUMN pushed_at timestamptz;

-- A subscription at a hub, held by the crawler and answered by `serve` at
-- <[websub] callback_base>/websub/<token>. The token names the subscription in its callback
-- URL (unguessable: 32 random bytes as hex), the secret signs what the hub delivers.
--   state: subscribing (never verified yet), active (verified, until lease_expires_at),
--          denied (the hub refused it), unsubscribing (no longer wanted: the feed was removed,
--          went, or declares another hub or topic now).
--   requested_mode: the request sent and not verified yet ('subscribe', 'unsubscribe'); the
--          hub's verification of intent is answered only while it matches.
--   due_at: when the crawler sends the next request (a first subscription, a renewal before
--          the lease ends, a retry, an unsubscription).
CREATE TABLE websub_subscriptions (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  feed_id          bigint REFERENCES feeds (id) ON DELETE SET NULL,
  hub              text NOT NULL,
  topic            text NOT NULL,
  token            text NOT NULL UNIQUE,
  secret           text NOT NULL,
  state            text NOT NULL DEFAULT 'subscribing'
                   CHECK (state IN ('subscribing', 'active', 'denied', 'unsubscribing')),
  requested_mode   text CHECK (requested_mode IN ('subscribe', 'unsubscribe')),
  requested_at     timestamptz,
  verified_at      timestamptz,
  lease_expires_at timestamptz,
  due_at           timestamptz NOT NULL DEFAULT now(),
  created_at       timestamptz NOT NULL DEFAULT now()
);

-- At most one subscription a feed wants; those being ended may be several.
CREATE UNIQUE INDEX websub_subscriptions_feed_idx ON websub_subscriptions (feed_id)
  WHERE state <> 'unsubscribing';
-- What the crawler looks for: requests due, soonest first (renewals included).
CREATE INDEX websub_subscriptions_due_idx ON websub_subscriptions (due_at);

-- The new episodes of feeds with a hub, by hub and by what saw them first: a fetch that a
-- delivery from the hub caused ('push') or the crawl's schedule ('poll'). A hub whose push
-- count stops growing while its poll count grows has gone silent.
CREATE TABLE websub_hub_counts (
  hub          text NOT NULL,
  first        text NOT NULL CHECK (first IN ('push', 'poll')),
  new_episodes bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (hub, first)
);
-- When each hub last delivered a notification whose signature held.
CREATE TABLE websub_hubs (
  hub            text PRIMARY KEY,
  last_push_at   timestamptz
);
