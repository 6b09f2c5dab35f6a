#include "podcrawl/fetch/post.hpp"

#include "podcrawl/net/url.hpp"
#include "transfer_internal.hpp"

namespace podcrawl::fetch {

namespace {

struct CurlFree {
  void operator()(char* text) const { curl_free(text); }
};

// The fields as an HTML form encodes them: name=value pairs joined by '&', each percent-encoded.
std::string encoded_form(CURL* curl, const FormFields& fields) {
  std::string form;
  for (const auto& [name, value] : fields) {
    const std::unique_ptr<char, CurlFree> encoded_name(
        curl_easy_escape(curl, name.data(), static_cast<int>(name.size())));
    const std::unique_ptr<char, CurlFree> encoded_value(
        curl_easy_escape(curl, value.data(), static_cast<int>(value.size())));
    if (!encoded_name || !encoded_value) {
      return {};
    }
    form += (form.empty() ? "" : "&") + std::string(encoded_name.get()) + "=" +
            std::string(encoded_value.get());
  }
  return form;
}

} // namespace

FetchResult post_form(const std::string& url, const FormFields& fields,
                      const core::FetchConfig& config) {
  if (!net::is_http_url(url)) {
    return internal::failure(FetchOutcome::refused, "not an http(s) URL", url);
  }
  auto hop = internal::make_hop(FetchRequest{url, {}, {}}, url, config);
  if (!hop) {
    return internal::failure(FetchOutcome::network_error, "libcurl could not make a handle", url);
  }
  const std::string form = encoded_form(hop->curl.get(), fields);
  curl_easy_setopt(hop->curl.get(), CURLOPT_POSTFIELDSIZE_LARGE,
                   static_cast<curl_off_t>(form.size()));
  curl_easy_setopt(hop->curl.get(), CURLOPT_POSTFIELDS, form.c_str());
  const CURLcode code = curl_easy_perform(hop->curl.get());
  internal::HopEnd end = internal::finish_hop(*hop, code);
  if (end.result) {
    return std::move(*end.result);
  }
  return internal::failure(FetchOutcome::http_error, "redirected to " + net::redact(end.next_url),
                           url);
}

} // namespace podcrawl::fetch
