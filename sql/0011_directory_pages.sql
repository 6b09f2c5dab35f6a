-- The directory's pages read one page at a time: a category's shows, a language's shows, the
-- newest episodes, each by an index, whatever the directory's size.

-- A category's address: the ASCII slug of its name (l10n::slugify), written by the store with the
-- name; spellings that share a slug are one category of the directory. `language` is the declared
-- language of the show that stored the spelling first, for marking the name up. Rows stored
-- before get their slug from `podcrawl migrate` (slugify is ICU's, not SQL's) and the language
-- of the first show listing them.
ALTER TABLE categories ADD COLUMN slug text, ADD COLUMN language text NOT NULL DEFAULT '';
UPDATE categories c SET language = coalesce((
  SELECT s.language FROM show_categories sc JOIN shows s ON s.id = sc.show_id
  WHERE sc.category_id = c.id ORDER BY s.id LIMIT 1), '');
CREATE INDEX categories_slug_idx ON categories (slug, id);

-- The newest episodes of the whole directory (the home page).
CREATE INDEX episodes_published_idx ON episodes (published DESC)
  WHERE removed_at IS NULL AND published IS NOT NULL;

-- A language's shows in list order (language pages); lists order titles by ICU's root collation,
-- cut to a length an index entry always holds.
CREATE INDEX shows_language_list_idx
  ON shows (lower(language), (left(title, 200) COLLATE "und-x-icu"), slug)
  WHERE active AND title <> '';
