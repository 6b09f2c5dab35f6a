-- Keys of the API (`podcrawl api-key`), as Podcast Index hands them out: a public key sent with
-- each request and a secret the client signs with. A revoked key stays, with its time, so that
-- `api-key list` still names it; only keys without revoked_at are loaded by the server.
CREATE TABLE api_keys (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key        text NOT NULL UNIQUE,
  secret     text NOT NULL,
  name       text NOT NULL,
  can_write  boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);

-- Every change of the keys, by podcrawl or by hand, is announced on podcrawl_api_keys when its
-- transaction commits (once, however many rows it changed), so that a running server loads them
-- again. A statement that changes no row announces nothing.
CREATE FUNCTION podcrawl_announce_api_keys() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('podcrawl_api_keys', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER api_keys_announce AFTER INSERT OR UPDATE OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION podcrawl_announce_api_keys();
CREATE TRIGGER api_keys_announce_truncate AFTER TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION podcrawl_announce_api_keys();
