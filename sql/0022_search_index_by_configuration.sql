-- The text search indexes keyed by each row's search configuration too (btree_gin), so that a
-- search reads, for each reading of its words, only the rows of the configurations that read
-- them so: a word that Danish, Dutch, German, Norwegian and Swedish stem to a common English
-- word ("gardenig" to "garden") no longer fetches every English row holding it to reject them.
CREATE EXTENSION IF NOT EXISTS btree_gin;
DROP INDEX shows_search_idx;
CREATE INDEX shows_search_idx ON shows USING gin ((search_config::oid), search_vector);
DROP INDEX episodes_search_idx;
CREATE INDEX episodes_search_idx ON episodes USING gin ((search_config::oid), search_vector);
