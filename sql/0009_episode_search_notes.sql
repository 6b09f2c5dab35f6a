-- Episode search reads the title and the first part of the show notes as plain text, which the
-- store extracts from the notes' HTML when it writes the row (store::search_notes), instead of
-- the whole HTML with its tags dropped here. Every new episode's vector is computed in the
-- crawl's write; stripping tags in the database and stemming notes of any length cost more than
-- the rest of that write.

-- The notes' plain text, bounded (store::k_max_search_notes_bytes); written with description.
ALTER TABLE episodes ADD COLUMN search_notes text NOT NULL DEFAULT '';

-- Episodes stored before: the same extraction done in SQL (tags dropped, white space collapsed,
-- 4000 characters kept).
UPDATE episodes SET search_notes = left(btrim(regexp_replace(
  regexp_replace(left(description, 16000), '<[^>]*>', ' ', 'g'), '\s+', ' ', 'g')), 4000)
WHERE description <> '';

-- Replacing the generated column drops its index with it; both come back from the new column.
-- Built-in functions only, with podcrawl_index_text's bound written out: PostgreSQL inlines an
-- SQL function of a generated column anew, parsing its body, in every statement writing a row.
ALTER TABLE episodes DROP COLUMN search_vector;
ALTER TABLE episodes ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector(search_config, left(title, 100000)), 'A') ||
  setweight(to_tsvector(search_config, left(search_notes, 100000)), 'C')
) STORED;
CREATE INDEX episodes_search_idx ON episodes USING gin (search_vector);
