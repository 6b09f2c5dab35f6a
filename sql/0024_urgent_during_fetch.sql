-- A feed marked urgent (CrawlList::mark_urgent_by_url, mark_urgent_by_show) while a crawler has
-- it in hand: what that crawler fetches may predate the change the mark announces, and the next
-- fetch it writes when it records its outcome would bury the mark. urgent_at is when the feed
-- was last marked; a claim takes the mark (sets it NULL), so a mark is still there when the
-- lease is released only if it came during the fetch. Then the feed stays due from the mark,
-- whatever next fetch was written, and is announced again when the release commits, so that a
-- watching crawler fetches it anew.
ALTER TABLE feeds ADD COLUMN urgent_at timestamptz;

CREATE FUNCTION podcrawl_keep_urgent_mark() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.next_fetch_at := least(NEW.next_fetch_at, date_trunc('second', OLD.urgent_at));
  NEW.urgent_at := NULL;
  IF NEW.status IN ('active', 'failing') THEN
    PERFORM pg_notify('podcrawl_urgent', NEW.id::text);
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER feeds_keep_urgent_mark BEFORE UPDATE OF lease_until ON feeds
  FOR EACH ROW
  WHEN (OLD.urgent_at IS NOT NULL AND OLD.lease_until IS NOT NULL AND NEW.lease_until IS NULL)
  EXECUTE FUNCTION podcrawl_keep_urgent_mark();
