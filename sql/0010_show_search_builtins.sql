-- Show search from built-in functions only, as episode search since 0009. PostgreSQL inlines an
-- SQL function of a generated column anew, parsing its body, in every statement writing a row:
-- the seven calls in the shows' generated columns took about a tenth of the server's time in a
-- first crawl. The statements writing a show's language now write its search configuration
-- too, and the store writes the notes' plain text (store::search_notes) beside the description.

-- Dropping the vector drops its index; both come back below from columns the row holds.
ALTER TABLE shows DROP COLUMN search_vector;

-- Written as podcrawl_search_config(language) by every statement that writes language; the
-- values computed so far stay.
ALTER TABLE shows ALTER COLUMN search_config DROP EXPRESSION;
ALTER TABLE shows ALTER COLUMN search_config SET DEFAULT 'pg_catalog.simple';
ALTER TABLE shows ALTER COLUMN search_config SET NOT NULL;

-- The description's plain text, bounded (store::k_max_search_notes_bytes).
ALTER TABLE shows ADD COLUMN search_notes text NOT NULL DEFAULT '';

-- Shows stored before: tags dropped and white space collapsed in SQL, as 0009 did for episodes.
-- The store's own extraction also decodes character references; the next crawl that saves the
-- show writes that.
UPDATE shows SET search_notes = left(btrim(regexp_replace(
  regexp_replace(left(description, 16000), '<[^>]*>', ' ', 'g'), '\s+', ' ', 'g')), 4000)
WHERE description <> '';

ALTER TABLE shows ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector(search_config, left(title, 100000)), 'A') ||
  setweight(to_tsvector(search_config, left(author, 100000)), 'B') ||
  setweight(to_tsvector(search_config, left(search_notes, 100000)), 'C')
) STORED;
CREATE INDEX shows_search_idx ON shows USING gin (search_vector);
