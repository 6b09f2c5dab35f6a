-- The language the directory files a show under. `language` stays what the feed declares;
-- `detected_language` is what the show's own text is in (NULL when there is too little text
-- to tell) and `effective_language` the one search, pages and language lists use: the
-- declared one unless the text clearly contradicts it (feed::effective_language). Shows stored
-- before keep their declared language until the next crawl that saves them.
ALTER TABLE shows ADD COLUMN detected_language text,
  ADD COLUMN effective_language text NOT NULL DEFAULT '';
UPDATE shows SET effective_language = language WHERE language <> '';

-- Language pages list by the effective language.
DROP INDEX shows_language_list_idx;
CREATE INDEX shows_language_list_idx
  ON shows (lower(effective_language), (left(title, 200) COLLATE "und-x-icu"), slug)
  WHERE active AND title <> '';
