#pragma once

#include <string>

#include <pqxx/pqxx>

#include "podcrawl/store/records.hpp"

// Reading shows and episodes from result rows: the column lists and their readers, shared by
// every statement that loads them.
namespace podcrawl::store {

// The columns show_from_row reads, from `shows s JOIN feeds f`: s.id first.
extern const char* const k_show_columns;
// The columns add_episode reads, from `episodes e`: e.show_id first, 19 in all.
extern const char* const k_episode_columns;
// The order of a show's current episodes on its pages: newest first, undated last, then as the
// feed lists them.
extern const char* const k_episode_order;
// Listed shows (those with pages), over `shows s`.
extern const char* const k_listed_show;

StoredShow show_from_row(const pqxx::row& row);
// Append the episode of a k_episode_columns row to stored (its slug to episode_slugs).
void add_episode(const pqxx::row& row, StoredShow& stored);

} // namespace podcrawl::store
