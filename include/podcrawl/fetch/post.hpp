#pragma once

#include <string>
#include <utility>
#include <vector>

#include "podcrawl/core/config.hpp"
#include "podcrawl/fetch/fetcher.hpp"

namespace podcrawl::fetch {

// Fields of a form, in order: name and value, unencoded.
using FormFields = std::vector<std::pair<std::string, std::string>>;

// POST `fields` as application/x-www-form-urlencoded to url, under fetch()'s bounds (timeouts,
// the address policy, the body cap) and without following redirects: a 3xx is an http_error,
// since a form is not sent again to wherever it points. The outcome is ok for any 2xx (the body
// kept, decoded), gone for 410, else as fetch() judges it. Failures are returned, never thrown.
// Blocks until done.
FetchResult post_form(const std::string& url, const FormFields& fields,
                      const core::FetchConfig& config);

} // namespace podcrawl::fetch
