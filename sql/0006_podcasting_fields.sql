-- The iTunes and Podcasting 2.0 fields beyond the common columns, stored as the parse JSON writes
-- them (feed::ItunesShow, PodcastShow, ItunesEpisode, PodcastEpisode): an object holding only
-- the fields the feed gave, NULL when it gave none. They travel with the row they belong to, so
-- a show or episode and its persons, funding, transcripts and chapters are written, compared and
-- replaced in the one statement that saves the row; the views below read them as tables.
ALTER TABLE shows ADD COLUMN itunes jsonb, ADD COLUMN podcast jsonb;
ALTER TABLE episodes ADD COLUMN itunes jsonb, ADD COLUMN podcast jsonb;

-- podcast:locked as the feed declares it: true asks other platforms not to import the feed.
ALTER TABLE shows
  ADD COLUMN locked boolean GENERATED ALWAYS AS ((podcast ->> 'locked')::boolean) STORED;

-- podcast:person of shows (episode_id NULL) and of current episodes, in document order, with the
-- namespace's defaults (role host, group cast) where the feed names none.
CREATE VIEW persons AS
  SELECT s.id AS show_id, NULL::bigint AS episode_id, (p.ordinality - 1)::integer AS position,
         p.value ->> 'name' AS name, coalesce(p.value ->> 'role', 'host') AS role,
         coalesce(p.value ->> 'group', 'cast') AS "group", p.value ->> 'image' AS image,
         p.value ->> 'href' AS href
  FROM shows s, jsonb_array_elements(s.podcast -> 'persons') WITH ORDINALITY AS p(value, ordinality)
  UNION ALL
  SELECT e.show_id, e.id, (p.ordinality - 1)::integer,
         p.value ->> 'name', coalesce(p.value ->> 'role', 'host'),
         coalesce(p.value ->> 'group', 'cast'), p.value ->> 'image', p.value ->> 'href'
  FROM episodes e, jsonb_array_elements(e.podcast -> 'persons') WITH ORDINALITY AS p(value, ordinality)
  WHERE e.removed_at IS NULL;

-- podcast:funding of each show, in document order.
CREATE VIEW funding AS
  SELECT s.id AS show_id, (f.ordinality - 1)::integer AS position, f.value ->> 'url' AS url,
         f.value ->> 'text' AS text
  FROM shows s, jsonb_array_elements(s.podcast -> 'funding') WITH ORDINALITY AS f(value, ordinality);

-- podcast:transcript of each current episode, in document order.
CREATE VIEW transcripts AS
  SELECT e.show_id, e.id AS episode_id, (t.ordinality - 1)::integer AS position,
         t.value ->> 'url' AS url, nullif(t.value ->> 'type', '') AS type
  FROM episodes e, jsonb_array_elements(e.transcripts) WITH ORDINALITY AS t(value, ordinality)
  WHERE e.removed_at IS NULL;

-- podcast:chapters of each current episode that has them.
CREATE VIEW chapters AS
  SELECT e.show_id, e.id AS episode_id, e.chapters_url AS url,
         e.podcast ->> 'chapters_type' AS type
  FROM episodes e
  WHERE e.removed_at IS NULL AND e.chapters_url <> '';
