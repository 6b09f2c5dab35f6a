-- The shows whose episodes use a picture as their own, so that a new picture at that URL marks
-- them changed (as a show's own picture marks it through shows.image). A link outlives the
-- episode that made it: a show stamped once too often renders again, which is harmless.
CREATE TABLE artwork_shows (
  url     text NOT NULL,
  show_id bigint NOT NULL REFERENCES shows (id) ON DELETE CASCADE,
  PRIMARY KEY (url, show_id)
);
CREATE INDEX artwork_shows_show_idx ON artwork_shows (show_id);

INSERT INTO artwork_shows (url, show_id)
SELECT DISTINCT n.image, s.id
FROM shows s
CROSS JOIN LATERAL (
  SELECT e.image FROM episodes e
  WHERE e.show_id = s.id AND e.removed_at IS NULL
  ORDER BY e.published DESC NULLS LAST, e.position, e.id
  LIMIT 50
) n
WHERE n.image <> '' AND n.image <> s.image AND octet_length(n.image) <= 2048
ORDER BY 1, 2
ON CONFLICT DO NOTHING;

-- Show notes lose their <img> elements when they are parsed (a page loads no image from another
-- host): feeds whose stored notes still hold one are asked again in full at their next crawl, so
-- that the notes are parsed and stored again.
UPDATE feeds f SET etag = '', last_modified = '', content_hash = ''
WHERE EXISTS (
  SELECT 1 FROM shows s JOIN episodes e ON e.show_id = s.id
  WHERE s.id = f.show_id AND (e.description LIKE '%<img%' OR s.description LIKE '%<img%')
);
