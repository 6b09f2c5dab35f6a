-- What changed since a reader last looked. Every save that changes a show stamps it with its
-- transaction's id; a reader records its snapshot's xmin (every transaction below it had ended
-- when the snapshot was taken), and the shows changed since are those stamped at or above it.
-- Unlike a clock or a sequence, this misses no transaction that committed late. The stamps are
-- data, so a read replica answers the same question.
ALTER TABLE shows ADD COLUMN changed_xid xid8 NOT NULL DEFAULT '0';
CREATE INDEX shows_changed_xid_idx ON shows (changed_xid);
