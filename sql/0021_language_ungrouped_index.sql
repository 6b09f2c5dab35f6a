-- The shows `migrate` has still to put under a language (0020): an index that is empty once
-- every show has its group, so that the look-up every `migrate` makes costs nothing.
CREATE INDEX shows_language_ungrouped_idx ON shows (id) WHERE language_group IS NULL;
