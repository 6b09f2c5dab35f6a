#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <pqxx/pqxx>

#include "podcrawl/model/report.hpp"
#include "podcrawl/store/database.hpp"
#include "podcrawl/store/records.hpp"

namespace podcrawl::store {

// What a Database holds, shared by the classes made over it: a member of Database, so outside
// namespace internal.
// Category names by id.
using CategoryNames = std::unordered_map<std::int64_t, std::string>;

struct Database::Impl {
  std::string redacted_url;
  pqxx::connection connection;
  std::unordered_set<std::string> typo_words_written; // committed, at most k_remembered_...
  // Category names by id, as read (a name never changes), at most k_remembered_category_names.
  CategoryNames category_names;

  explicit Impl(const std::string& url);
};

} // namespace podcrawl::store

namespace podcrawl::store::internal {

// Longest error message kept on a feed and in its fetch history.
inline constexpr std::size_t k_max_error_bytes = 1000;
// Longest image URL kept in the artwork table; a longer one is not fetched.
inline constexpr std::size_t k_max_art_url_bytes = 2048;
// Episodes of a show, newest first, whose own pictures (when they differ from the show's) are
// fetched as cover art: those of the first page of the show's list.
inline constexpr std::int64_t k_pictured_episodes = 50;
// Most categories stored for one show; feeds list a handful.
inline constexpr std::size_t k_max_categories = 32;
// Longest category name stored.
inline constexpr std::size_t k_max_category_bytes = 200;
// Longest language tag stored with a category.
inline constexpr std::size_t k_max_language_bytes = 35;
// A host name: 253 bytes in DNS.
inline constexpr std::size_t k_max_host_bytes = 253;

// Category names a connection keeps (then forgotten at once); feeds list a few hundred.
inline constexpr std::size_t k_remembered_category_names = 100'000;

// Words this connection wrote to search_words lately (typo_words_to_write), at most this many
// (then forgotten at once).
inline constexpr std::size_t k_remembered_typo_words = 100'000;

// A nullable column. (libpqxx 6.4 as packaged cannot read std::optional itself; as a
// statement parameter an empty std::optional is NULL.)
template <typename T>
std::optional<T> nullable(const pqxx::field& field) {
  if (field.is_null()) {
    return std::nullopt;
  }
  return field.as<T>();
}

// The counts `stats` prints, read in txn's snapshot.
model::Stats read_stats(pqxx::transaction_base& txn);

// The URL with its password replaced by "***" (URL and key=value forms); "libpq defaults"
// when empty.
std::string redact_database_url(const std::string& url);

// Text from a feed made storable in PostgreSQL: NUL bytes dropped, invalid UTF-8 replaced by
// U+FFFD.
std::string storable_text(std::string_view text);
// A query as a search reads it: storable_text, runs of white space made one space, trimmed.
std::string search_words(std::string_view query);
// storable_text, then cut to at most max_bytes without splitting a character.
std::string bounded_text(std::string_view text, std::size_t max_bytes);

// Most bytes of an episode's or show's notes that search reads: the first paragraphs carry what
// it is about, and a vector of whole notes costs the crawl's write more than the rest of the row.
inline constexpr std::size_t k_max_search_notes_bytes = 4000;
// The words of notes as search reads them (episodes and shows.search_notes): html::search_text,
// storable (storable_text) whatever the input.
std::string search_notes(std::string_view html, std::size_t max_bytes);

// The SQL of a show's search vector from its configuration and the index text of its fields
// (search::index_text): a match in the title weighs most (A), then the author (B), then the notes
// (C). The arguments are SQL expressions.
std::string show_search_vector(std::string_view config, std::string_view title,
                               std::string_view author, std::string_view notes);
// The same for an episode, which has no author.
std::string episode_search_vector(std::string_view config, std::string_view title,
                                  std::string_view notes);
// The words of index texts (search::index_text of titles) that a query's word with a typo may
// be corrected to (table search_words: search::correctable ones), sorted, each once, and
// space-separated; those in `written` are left out, as a crawl meets the same few again and
// again.
std::string typo_words_to_write(std::string_view index_texts,
                                const std::unordered_set<std::string>& written = {});
// Add words typo_words_to_write gave to `written`, once the transaction that wrote them
// committed.
void remember_typo_words(std::string_view words, std::unordered_set<std::string>& written);
// The statement writing the words of $n (typo_words_to_write) to search_words, in their order,
// so that two writers never deadlock on them.
std::string write_typo_words(std::string_view parameter);

// A feed stopped describing its show (removed or gone): another live feed of the show takes it
// over, else the show becomes inactive.
void release_show(pqxx::work& txn, std::int64_t feed_id);

// Ids as a PostgreSQL array literal ("{1,2,3}"), for a `$n::bigint[]` parameter.
std::string id_array(const std::vector<std::int64_t>& ids);
// The elements of a one-dimensional integer array as PostgreSQL writes it ("{1,NULL,-3}"):
// NULL, or anything that is not an integer, as nullopt; no element for text that is no array.
std::vector<std::optional<std::int64_t>> integer_array(std::string_view text);
// Strings as a PostgreSQL array literal, for a `$n::text[]` parameter: each element made
// storable (storable_text) and quoted, its quotes and backslashes escaped.
std::string text_array(const std::vector<std::string>& items);

// Called inside a catch block: throw the current libpqxx failure again as a
// core::EnvironmentError naming the operation and the (redacted) database.
[[noreturn]] void rethrow_as_environment_error(const std::string& redacted_url,
                                               const char* operation);

// Runs the statement prepared under `name` on this connection: libpqxx prepares it on first use
// (and again after a reconnect), so a statement run for every feed is parsed and planned once per
// connection. For statements whose best plan does not depend on their parameters.
template <typename... Args>
pqxx::result exec_named(pqxx::transaction_base& txn, const char* name, const std::string& sql,
                        Args&&... args) {
  txn.conn().prepare(name, sql); // a no-op once registered with the same text
  return txn.exec_prepared(name, std::forward<Args>(args)...);
}

// For the crawl's writes: commit without waiting for the WAL flush. A crash may lose the last
// fraction of a second of them, never consistency: each transaction is recovered whole or not
// at all, in commit order. A lost save is only a feed fetched again by a later crawl; waiting for
// the disk on every feed would bound a crawl by fsyncs.
inline void commit_without_flush_wait(pqxx::work& txn) {
  txn.exec("SET LOCAL synchronous_commit = off");
}

// The channel on which the store announces, at commit, a show whose pages changed; the payload
// is the show's slug. Every process connected to the primary may LISTEN on it.
inline constexpr const char* k_directory_channel = "podcrawl_directory";
// Stamp show `slug` as changed by txn (shows.changed_xid, for DirectoryPages::shows_changed_since)
// and announce it on k_directory_channel when txn commits.
inline void notify_show_changed(pqxx::transaction_base& txn, const std::string& slug) {
  exec_named(txn, "podcrawl_stamp_show",
             "UPDATE shows SET changed_xid = pg_current_xact_id() WHERE slug = $1", slug);
  exec_named(txn, "podcrawl_notify_show", "SELECT pg_notify('podcrawl_directory', $1)", slug);
}

// Run one database operation, translating libpqxx failures at this edge.

template <typename Body>
auto guarded(const std::string& redacted_url, const char* operation, Body&& body)
    -> decltype(body()) {
  try {
    return body();
  } catch (const pqxx::failure&) {
    rethrow_as_environment_error(redacted_url, operation);
  }
}

} // namespace podcrawl::store::internal
