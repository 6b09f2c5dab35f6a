-- Episodes' own pictures join the cover art the crawl fetches, when they differ from their
-- show's: those of each show's newest 50 current episodes (the first page of its list). From
-- now on the crawl lists them as it stores episodes; this lists the ones already stored.
INSERT INTO artwork (url)
SELECT DISTINCT n.image
FROM shows s
CROSS JOIN LATERAL (
  SELECT e.image FROM episodes e
  WHERE e.show_id = s.id AND e.removed_at IS NULL
  ORDER BY e.published DESC NULLS LAST, e.position, e.id
  LIMIT 50
) n
WHERE n.image <> '' AND n.image <> s.image AND octet_length(n.image) <= 2048
ON CONFLICT (url) DO NOTHING;
