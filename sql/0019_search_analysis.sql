-- Search reads text as podcrawl's own analysis cuts and folds it (search::index_text): words
-- inside Chinese, Japanese and Thai text, bigrams of Han, kana and Hangul, letter forms and
-- diacritics folded, titles romanized beside their words. The store writes the analysed text of
-- each field beside the field, and each row's vector from it in the same statement.

-- The analysed title (with its romanized words) and author; search_notes holds the analysed
-- notes from now on. NULL until the row is written again or `podcrawl reindex` reaches it.
ALTER TABLE shows ADD COLUMN search_title text;
ALTER TABLE shows ADD COLUMN search_author text;
ALTER TABLE episodes ADD COLUMN search_title text;

-- The vectors become plain columns, written by the statements that write the row: their values
-- stay, so search keeps answering from them until `podcrawl reindex` has rewritten every row (no
-- table is rewritten here, and nothing waits for a lock held for minutes).
ALTER TABLE shows ALTER COLUMN search_vector DROP EXPRESSION;
ALTER TABLE episodes ALTER COLUMN search_vector DROP EXPRESSION;

-- The words of titles, folded, of 5 characters or more: where a query's word with one typo
-- finds the word meant (pg_trgm's similarity, then the edit distance).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TABLE search_words (
  word text PRIMARY KEY
);
CREATE INDEX search_words_trgm_idx ON search_words USING gin (word gin_trgm_ops);
