-- Language pages by language: a show is listed under its language (l10n::language_group of its
-- effective language: regions together, Chinese apart by script), which the store writes with
-- the show. Shows stored before get theirs from `podcrawl migrate` (the grouping is C++'s, not
-- SQL's); NULL until then.
ALTER TABLE shows ADD COLUMN language_group text;

DROP INDEX shows_language_list_idx;
CREATE INDEX shows_language_list_idx
  ON shows (language_group, (left(title, 200) COLLATE "und-x-icu"), slug)
  WHERE active AND title <> '';
