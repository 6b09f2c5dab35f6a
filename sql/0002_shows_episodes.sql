-- Shows and episodes as their feeds last described them, with language-aware search.

-- The PostgreSQL text search configuration for a BCP 47 language tag: its primary subtag mapped
-- to a built-in stemming configuration, 'simple' (no stemming) for anything else.
CREATE FUNCTION podcrawl_search_config(language text) RETURNS regconfig
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE lower(split_part(split_part(coalesce(language, ''), '-', 1), '_', 1))
    WHEN 'ar' THEN 'pg_catalog.arabic'::regconfig
    WHEN 'hy' THEN 'pg_catalog.armenian'::regconfig
    WHEN 'eu' THEN 'pg_catalog.basque'::regconfig
    WHEN 'ca' THEN 'pg_catalog.catalan'::regconfig
    WHEN 'da' THEN 'pg_catalog.danish'::regconfig
    WHEN 'nl' THEN 'pg_catalog.dutch'::regconfig
    WHEN 'en' THEN 'pg_catalog.english'::regconfig
    WHEN 'fi' THEN 'pg_catalog.finnish'::regconfig
    WHEN 'fr' THEN 'pg_catalog.french'::regconfig
    WHEN 'de' THEN 'pg_catalog.german'::regconfig
    WHEN 'el' THEN 'pg_catalog.greek'::regconfig
    WHEN 'hi' THEN 'pg_catalog.hindi'::regconfig
    WHEN 'hu' THEN 'pg_catalog.hungarian'::regconfig
    WHEN 'id' THEN 'pg_catalog.indonesian'::regconfig
    WHEN 'ga' THEN 'pg_catalog.irish'::regconfig
    WHEN 'it' THEN 'pg_catalog.italian'::regconfig
    WHEN 'lt' THEN 'pg_catalog.lithuanian'::regconfig
    WHEN 'ne' THEN 'pg_catalog.nepali'::regconfig
    WHEN 'no' THEN 'pg_catalog.norwegian'::regconfig
    WHEN 'nb' THEN 'pg_catalog.norwegian'::regconfig
    WHEN 'nn' THEN 'pg_catalog.norwegian'::regconfig
    WHEN 'pt' THEN 'pg_catalog.portuguese'::regconfig
    WHEN 'ro' THEN 'pg_catalog.romanian'::regconfig
    WHEN 'ru' THEN 'pg_catalog.russian'::regconfig
    WHEN 'sr' THEN 'pg_catalog.serbian'::regconfig
    WHEN 'es' THEN 'pg_catalog.spanish'::regconfig
    WHEN 'sv' THEN 'pg_catalog.swedish'::regconfig
    WHEN 'ta' THEN 'pg_catalog.tamil'::regconfig
    WHEN 'tr' THEN 'pg_catalog.turkish'::regconfig
    WHEN 'yi' THEN 'pg_catalog.yiddish'::regconfig
    ELSE 'pg_catalog.simple'::regconfig
  END
$$;

-- Plain text as indexed: bounded so one huge field cannot exceed the tsvector size limit.
CREATE FUNCTION podcrawl_index_text(plain text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT left(coalesce(plain, ''), 100000)
$$;

-- Sanitized HTML as indexed: tags dropped, bounded.
CREATE FUNCTION podcrawl_index_html(html text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT podcrawl_index_text(regexp_replace(left(coalesce(html, ''), 400000), '<[^>]*>', ' ', 'g'))
$$;

CREATE TABLE shows (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  feed_id       bigint NOT NULL UNIQUE REFERENCES feeds (id) ON DELETE CASCADE,
  -- Assigned once, when the show is first stored; pages keep their address.
  slug          text NOT NULL UNIQUE,
  title         text NOT NULL DEFAULT '',
  link          text NOT NULL DEFAULT '',
  description   text NOT NULL DEFAULT '',
  language      text NOT NULL DEFAULT '',
  image         text NOT NULL DEFAULT '',
  author        text NOT NULL DEFAULT '',
  explicit      boolean,
  podcast_guid  text NOT NULL DEFAULT '',
  new_feed_url  text NOT NULL DEFAULT '',
  active        boolean NOT NULL DEFAULT true,
  added_at      timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL,
  search_config regconfig GENERATED ALWAYS AS (podcrawl_search_config(language)) STORED,
  search_vector tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector(podcrawl_search_config(language), podcrawl_index_text(title)), 'A') ||
    setweight(to_tsvector(podcrawl_search_config(language), podcrawl_index_text(author)), 'B') ||
    setweight(to_tsvector(podcrawl_search_config(language), podcrawl_index_html(description)), 'C')
  ) STORED
);

CREATE INDEX shows_search_idx ON shows USING gin (search_vector);

ALTER TABLE feeds
  ADD CONSTRAINT feeds_show_fk FOREIGN KEY (show_id) REFERENCES shows (id) ON DELETE SET NULL;

CREATE TABLE categories (
  id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL UNIQUE
);

CREATE TABLE show_categories (
  show_id     bigint NOT NULL REFERENCES shows (id) ON DELETE CASCADE,
  category_id bigint NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
  position    integer NOT NULL,  -- order in the feed
  PRIMARY KEY (show_id, category_id)
);

CREATE INDEX show_categories_category_idx ON show_categories (category_id);

CREATE TABLE episodes (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  show_id          bigint NOT NULL REFERENCES shows (id) ON DELETE CASCADE,
  -- feed::episode_key: guid, else enclosure URL, else link, else title + date.
  key              text NOT NULL,
  -- Assigned once, when the episode is first stored.
  slug             text NOT NULL,
  guid             text NOT NULL DEFAULT '',
  title            text NOT NULL DEFAULT '',
  published        timestamptz,
  enclosure_url    text NOT NULL DEFAULT '',
  enclosure_type   text NOT NULL DEFAULT '',
  enclosure_length bigint,
  duration_seconds bigint,
  link             text NOT NULL DEFAULT '',
  description      text NOT NULL DEFAULT '',
  season           integer,
  episode          integer,
  explicit         boolean,
  image            text NOT NULL DEFAULT '',
  transcripts      jsonb NOT NULL DEFAULT '[]',
  chapters_url     text NOT NULL DEFAULT '',
  -- Index in the feed document at the last fetch.
  position         integer NOT NULL DEFAULT 0,
  first_seen_at    timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  -- Set when the episode vanished from its feed; cleared if it comes back.
  removed_at       timestamptz,
  -- The show's configuration, copied so the vector can be generated from this row alone.
  search_config    regconfig NOT NULL DEFAULT 'pg_catalog.simple',
  search_vector    tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector(search_config, podcrawl_index_text(title)), 'A') ||
    setweight(to_tsvector(search_config, podcrawl_index_html(description)), 'C')
  ) STORED,
  UNIQUE (show_id, key),
  UNIQUE (show_id, slug)
);

CREATE INDEX episodes_show_order_idx ON episodes (show_id, published DESC NULLS LAST, position)
  WHERE removed_at IS NULL;
CREATE INDEX episodes_search_idx ON episodes USING gin (search_vector);
