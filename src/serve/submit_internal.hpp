#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "podcrawl/http/server.hpp"

// The checks of the live directory's form that adds a podcast (/<locale>/add/), before anything
// is fetched or stored: that a POST comes from a page of this site, with a form this server made.
namespace podcrawl::serve::internal {

// How long a form stays good for: a token older than this is refused (the page asks to send
// the form again).
inline constexpr std::int64_t k_form_token_seconds = 2 * 3600;

// The tokens a form carries back: the Unix time it was made and a keyed hash of that time, so
// that a submission proves it came from a form this server made within k_form_token_seconds.
// The key is drawn when the tokens are made: a server that restarts refuses the forms made
// before. Safe from several threads at once.
class FormTokens {
public:
  // Throws core::EnvironmentError when the system gives no random bytes.
  FormTokens();

  std::string issue(std::int64_t now) const;
  // Whether `token` is one issue() made, at most k_form_token_seconds before `now` (and not
  // after it, beyond a minute's drift).
  bool valid(std::string_view token, std::int64_t now) const;

private:
  std::string signature(std::string_view time) const;

  std::string m_key;
};

// Whether a POST comes from a page of this site, as the browser says: Sec-Fetch-Site, when sent,
// is same-origin (or none: a person's own action, not another site's page); else Origin, when
// sent, names the host the request was sent to. A request with neither (an older browser, a
// script) passes: the token then proves only that a form of this server was fetched, which any
// site can do, so the form must stay harmless to send anonymously (rate limits, review).
bool same_origin(const http::Request& request);

} // namespace podcrawl::serve::internal
