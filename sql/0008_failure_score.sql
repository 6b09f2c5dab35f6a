-- How badly a feed has been failing lately: each failed fetch or parse adds the weight of its
-- kind (a timeout or a 5xx weighs less than a 404 or a document that is not a feed; the crawler
-- holds the table), and any success resets it to 0. The retry backoff grows with the score, and
-- the feed shows as 'failing' only once the score reaches [crawl] failing_score.
ALTER TABLE feeds ADD COLUMN failure_score integer NOT NULL DEFAULT 0 CHECK (failure_score >= 0);

-- Feeds already failing keep their place: their consecutive failures become their score.
UPDATE feeds SET failure_score = failures WHERE status = 'failing';
