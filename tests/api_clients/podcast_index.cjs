#!/usr/bin/env node
// Drive one of npm's Podcast Index clients against a podcrawl server, and hold every answer to
// the JSON Schemas podcastdx-client ships (src/schemas/1.0/*.json, draft-07).
//
// Usage: node podcast_index.cjs CLIENT TOOLS_DIR API_URL KEY SECRET FEED_URL TERM
//   CLIENT     podcastdx-client (5.1.0) or podcast-index-api (1.1.10)
//   TOOLS_DIR  the folder whose node_modules holds the clients, ajv and the schemas
//              (var/tools/check-site, installed by scripts/check-site --install-only)
//   API_URL    the server's Podcast Index API, http://127.0.0.1:PORT/api/1.0
//   KEY SECRET a key of the server (podcrawl api-key create)
//   FEED_URL   a feed the server holds; TERM words that find it
//
// Each client is pointed at API_URL the only way it allows: podcastdx-client's `apiUrl` is a
// plain property, overwritten; podcast-index-api's base URL is a constant handed to got.extend,
// which is wrapped before the client is loaded. Each client signs its requests itself
// (podcast-index-api with a fractional X-Auth-Date).
//
// The schemas were generated from the answers of their time; fields added to the API since
// (podcastGuid, feedUrl, ...) are not in them, so every `additionalProperties: false` is dropped:
// what is checked is that each required field is there with its type.
//
// Prints one JSON object: for each call, its name, the schema's errors (an empty array when the
// answer conforms), the client's answer, or the error the client threw. Exits 0 once every call
// was made, whatever the answers: the caller judges them.
"use strict";

const fs = require("fs");
const path = require("path");
const { createRequire } = require("module");

const [clientName, toolsDir, apiUrl, key, secret, feedUrl, term] = process.argv.slice(2);
if (!term) {
  console.error("usage: node podcast_index.cjs CLIENT TOOLS_DIR API_URL KEY SECRET FEED_URL TERM");
  process.exit(2);
}
const tools = createRequire(path.join(path.resolve(toolsDir), "package.json"));
// The episodes of a feed each call asks for.
const k_max = 5;

// Drop `additionalProperties: false` wherever it is; a schema-valued additionalProperties (the
// values of `categories`) stays.
function withoutClosedObjects(schema) {
  if (Array.isArray(schema)) {
    return schema.map(withoutClosedObjects);
  }
  if (schema === null || typeof schema !== "object") {
    return schema;
  }
  const open = {};
  for (const [name, value] of Object.entries(schema)) {
    if (!(name === "additionalProperties" && value === false)) {
      open[name] = withoutClosedObjects(value);
    }
  }
  return open;
}

// Where a schema contradicts Podcast Index's documentation, the documented definition stands in
// for that one property. podcastdx-client types every episodes answer alike, with episodes/
// byfeedid's `query` (the id, a string); episodes/byfeedurl echoes an object, {"url": "<url>"}
// (docs-api: api_src/components/responses/episodes_byfeedurl.yaml, properties/query_url.yaml).
const k_documented = {
  "episodes-byfeedurl": {
    query: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
  },
};

function schemaValidator() {
  const Ajv = tools("ajv");
  const ajv = new Ajv({ allErrors: true, strict: false });
  const schemaDir = path.join(path.dirname(tools.resolve("podcastdx-client/package.json")),
                              "src", "schemas", "1.0");
  return (name, answer) => {
    const schema = JSON.parse(fs.readFileSync(path.join(schemaDir, `${name}.json`), "utf8"));
    Object.assign(schema.properties, k_documented[name] || {});
    const validate = ajv.compile(withoutClosedObjects(schema));
    if (validate(answer)) {
      return [];
    }
    return validate.errors.map((error) => `${error.instancePath || "/"} ${error.message}`);
  };
}

// The calls, in order: each names the schema of its answer; `next` reads what later calls need.
function podcastdxCalls() {
  const PodcastIndexClient = tools("podcastdx-client");
  const client = new PodcastIndexClient({ key, secret, disableAnalytics: true });
  client.apiUrl = apiUrl;
  return {
    signedDates: [],
    calls: [
      ["search", "search-byterm", () => client.search(term)],
      ["podcastByUrl", "podcasts-byfeedurl", () => client.podcastByUrl(feedUrl)],
      ["podcastById", "podcasts-byfeedid", (ids) => client.podcastById(ids.feed)],
      ["episodesByFeedId", "episodes-byfeedid",
       (ids) => client.episodesByFeedId(ids.feed, { max: k_max })],
      ["episodesByFeedUrl", "episodes-byfeedurl",
       () => client.episodesByFeedUrl(feedUrl, { max: k_max })],
      ["episodeById", "episodes-byid", (ids) => client.episodeById(ids.episode)],
      ["recentEpisodes", "recent-episodes", () => client.recentEpisodes({ max: k_max })],
      ["recentFeeds", "recent-feeds", () => client.recentFeeds({ max: k_max })],
      ["categories", "categories-list", () => client.categories()],
      ["stats", "stats-current", () => client.stats()],
    ],
  };
}

function podcastIndexApiCalls() {
  // The client's `got` (as the client resolves it), its extend wrapped to add our base URL
  // after the client's own options, and to note the X-Auth-Date each request was signed with.
  const clientRequire = createRequire(tools.resolve("podcast-index-api"));
  const got = clientRequire("got");
  // (A beforeRequest hook that returns a value makes that value the response: this one returns
  // nothing.)
  const signedDates = [];
  const noteDate = (request) => {
    signedDates.push(request.headers["X-Auth-Date"]);
  };
  const extend = got.extend;
  got.extend = (...options) =>
    extend.call(got, ...options, {
      prefixUrl: `${apiUrl.replace(/\/+$/, "")}/`,
      hooks: { beforeRequest: [noteDate] },
    });
  const api = tools("podcast-index-api")(key, secret, "podcrawl-tests/1.0");
  return {
    signedDates,
    calls: [
      ["searchByTerm", "search-byterm", () => api.searchByTerm(term)],
      ["podcastsByFeedUrl", "podcasts-byfeedurl", () => api.podcastsByFeedUrl(feedUrl)],
      ["podcastsByFeedId", "podcasts-byfeedid", (ids) => api.podcastsByFeedId(ids.feed)],
      ["episodesByFeedId", "episodes-byfeedid",
       (ids) => api.episodesByFeedId(ids.feed, null, k_max)],
      ["episodesByFeedUrl", "episodes-byfeedurl",
       () => api.episodesByFeedUrl(feedUrl, null, k_max)],
      ["episodesById", "episodes-byid", (ids) => api.episodesById(ids.episode)],
      ["recentEpisodes", "recent-episodes", () => api.recentEpisodes(k_max)],
      ["recentFeeds", "recent-feeds", () => api.recentFeeds(k_max)],
      ["categoriesList", "categories-list", () => api.categoriesList()],
    ],
  };
}

async function main() {
  const clients = { "podcastdx-client": podcastdxCalls, "podcast-index-api": podcastIndexApiCalls };
  if (!(clientName in clients)) {
    console.error(`unknown client ${clientName}: one of ${Object.keys(clients).join(", ")}`);
    process.exit(2);
  }
  const validate = schemaValidator();
  const { calls, signedDates } = clients[clientName]();
  const ids = {};
  const results = [];
  for (const [name, schema, call] of calls) {
    const result = { name, schema };
    try {
      result.answer = await call(ids);
      result.errors = validate(schema, result.answer);
      const feed = result.answer.feed;
      if (feed && !Array.isArray(feed) && ids.feed === undefined) {
        ids.feed = feed.id;
      }
      const items = result.answer.items;
      if (Array.isArray(items) && items.length > 0 && ids.episode === undefined) {
        ids.episode = items[0].id;
      }
    } catch (error) {
      result.thrown = error && error.message ? error.message : String(error);
    }
    results.push(result);
  }
  process.stdout.write(`${JSON.stringify({ client: clientName, signedDates, results })}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
