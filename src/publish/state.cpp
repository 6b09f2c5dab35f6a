#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

#include "podcrawl/core/hash.hpp"
#include "podcrawl/render/layout.hpp"
#include "publish_internal.hpp"

// The state a render leaves beside the site (staging.cpp), in plain text: `state` as key=value
// lines, `shows` as one tab-separated line per show in slug order.

namespace podcrawl::publish::internal {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t k_chunk_bytes = 1 << 20;

std::optional<std::int64_t> number(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

// A file's hash, read a chunk at a time; "-" when it cannot be read.
std::string file_hash(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    return "-";
  }
  std::string hashes;
  std::string chunk(k_chunk_bytes, '\0');
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
    hashes +=
        core::content_hash(std::string_view(chunk.data(), static_cast<std::size_t>(in.gcount())));
  }
  return core::content_hash(hashes);
}

} // namespace

std::string show_record_line(const ShowRecord& record) {
  std::string line = record.slug + '\t' + std::to_string(record.expires_at) + '\t' +
                     std::to_string(record.pages) + '\t';
  for (std::size_t i = 0; i < record.episodes.size(); ++i) {
    if (i > 0) {
      line += ' ';
    }
    line += record.episodes[i];
  }
  line += '\n';
  return line;
}

std::optional<ShowRecord> parse_show_record(std::string_view line) {
  std::vector<std::string_view> fields;
  for (std::size_t start = 0;;) {
    const auto tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab - start));
    if (tab == std::string_view::npos) {
      break;
    }
    start = tab + 1;
  }
  if (fields.size() != 4 || !render::is_page_segment(fields[0])) {
    return std::nullopt;
  }
  const auto expires_at = number(fields[1]);
  const auto pages = number(fields[2]);
  if (!expires_at || !pages) {
    return std::nullopt;
  }
  ShowRecord record{std::string(fields[0]), *expires_at, *pages, {}};
  std::string_view episodes = fields[3];
  while (!episodes.empty()) {
    const auto space = episodes.find(' ');
    record.episodes.emplace_back(episodes.substr(0, space));
    episodes = space == std::string_view::npos ? std::string_view() : episodes.substr(space + 1);
  }
  return record;
}

std::string render_fingerprint(const render::SiteOptions& options, std::string_view site_url) {
  std::string text = "podcrawl-site-1\n";
  for (const auto& locale : options.locales) {
    text += "locale " + locale + " " + file_hash(options.locales_dir / (locale + ".toml")) + "\n";
  }
  text += "site " + std::string(site_url) + "\n";
  std::vector<fs::path> templates;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(options.templates_dir, error)) {
    if (entry.is_regular_file()) {
      templates.push_back(entry.path());
    }
  }
  std::sort(templates.begin(), templates.end());
  for (const auto& file : templates) {
    text += "template " + file.filename().string() + " " + file_hash(file) + "\n";
  }
  // The program itself: another build may write other bytes for the same pages.
  text += "program " + file_hash("/proc/self/exe") + "\n";
  return core::content_hash(text);
}

std::string render_state_text(const RenderState& state) {
  return "fingerprint=" + state.fingerprint + "\nsnapshot=" + state.snapshot +
         "\nrendered_at=" + std::to_string(state.rendered_at) +
         "\nlists_expire_at=" + std::to_string(state.lists_expire_at) + "\n";
}

std::optional<RenderState> read_render_state(const fs::path& file) {
  std::ifstream in(file);
  if (!in) {
    return std::nullopt;
  }
  RenderState state;
  int fields = 0;
  for (std::string line; std::getline(in, line);) {
    const auto equals = line.find('=');
    if (equals == std::string::npos) {
      return std::nullopt;
    }
    const std::string key = line.substr(0, equals);
    const std::string value = line.substr(equals + 1);
    if (key == "fingerprint") {
      state.fingerprint = value;
    } else if (key == "snapshot") {
      state.snapshot = value;
    } else if (key == "rendered_at" || key == "lists_expire_at") {
      const auto parsed = number(value);
      if (!parsed) {
        return std::nullopt;
      }
      (key == "rendered_at" ? state.rendered_at : state.lists_expire_at) = *parsed;
    } else {
      continue;
    }
    ++fields;
  }
  if (fields != 4 || state.fingerprint.empty()) {
    return std::nullopt;
  }
  return state;
}

} // namespace podcrawl::publish::internal
