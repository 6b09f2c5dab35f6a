#include "directory_fixture.hpp"

#include <ctime>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace podcrawl::testing {

std::string rfc822(std::int64_t t) {
  const std::time_t time = static_cast<std::time_t>(t);
  std::tm parts{};
  gmtime_r(&time, &parts);
  char buffer[64];
  std::strftime(buffer, sizeof buffer, "%a, %d %b %Y %H:%M:%S +0000", &parts);
  return buffer;
}

std::string tech_feed_with_new_episode(const std::string& title) {
  std::string feed = tech_feed();
  feed.insert(feed.find("<item>"),
              "<item><title>" + title + "</title><guid>tech-new</guid><pubDate>" +
                  rfc822(k_render_time - 3600) +
                  "</pubDate><enclosure url=\"https://media.example/tech/new.mp3\" "
                  "type=\"audio/mpeg\" length=\"1000\"/></item>");
  return feed;
}

std::string tech_feed() {
  std::string items;
  for (int i = 0; i < k_tech_episodes; ++i) {
    const std::int64_t published = k_render_time - 86400 - std::int64_t{i} * 22 * 86400;
    items += "<item><title>Episode " + std::to_string(k_tech_episodes - i) +
             ": C++20 &amp; modules</title><guid>tech-" + std::to_string(i) + "</guid><pubDate>" +
             rfc822(published) + "</pubDate><enclosure url=\"https://media.example/tech/" +
             std::to_string(i) +
             ".mp3\" type=\"audio/mpeg\" length=\"1000\"/><itunes:duration>32:48</itunes:duration>"
             "<description>&lt;p&gt;Notes&lt;/p&gt;&lt;script&gt;alert(1)&lt;/script&gt;"
             "</description></item>";
  }
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
<channel><title>Loopback Tech Talk</title><link>https://tech.example/</link>
<language>en-us</language><itunes:author>Ada Example</itunes:author>
<itunes:category text="Technology"/><description>Systems programming.</description>)" +
         items + "</channel></rss>";
}

std::string arabic_feed() {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
<channel><title>بودكاست الحلقة</title><link>https://ar.example/</link><language>ar</language>
<itunes:author>مؤلف</itunes:author><itunes:category text="Education"/>
<item><title>الحلقة الأولى</title><guid>ar-1</guid><pubDate>Mon, 01 Jun 2026 10:00:00 +0300</pubDate>
<enclosure url="https://media.example/ar/1.mp3" type="audio/mpeg" length="10"/></item>
</channel></rss>)";
}

void ChangingFeed::serve(LoopbackServer& server, const std::string& path) {
  server.on_get(path, [self = shared_from_this()](const Request& request, Response& response) {
    std::lock_guard lock(self->m_mutex);
    response.set_header("ETag", self->m_etag);
    if (request.header("If-None-Match") == self->m_etag) {
      response.status = 304;
      return;
    }
    response.set_content(self->m_body, "application/rss+xml");
  });
}

void ChangingFeed::set(std::string body, std::string etag) {
  std::lock_guard lock(m_mutex);
  m_body = std::move(body);
  m_etag = std::move(etag);
}

std::string generated_feed(const std::string& title, const std::string& category, int episodes,
                           const std::string& language) {
  std::string items;
  for (int i = episodes; i >= 1; --i) {
    const std::int64_t published = k_render_time - 3600 - std::int64_t{episodes - i} * 86400;
    items += "<item><title>" + title + " " + std::to_string(i) + "</title><guid>" + title + "-" +
             std::to_string(i) + "</guid><pubDate>" + rfc822(published) +
             "</pubDate><enclosure url=\"https://media.example/" + std::to_string(i) +
             ".mp3\" type=\"audio/mpeg\" length=\"1000\"/></item>";
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" "
         "xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel><title>" +
         title + "</title><link>https://shows.example/</link><language>" + language +
         "</language><itunes:category text=\"" + category + "\"/>" + items + "</channel></rss>";
}

std::vector<std::string> DirectoryTest::command(std::vector<std::string> arguments) const {
  arguments.insert(arguments.begin(), {podcrawl_binary(), "--database-url", database_url()});
  return arguments;
}

ProcessResult DirectoryTest::run(std::vector<std::string> arguments) {
  return run_process(command(std::move(arguments)));
}

void DirectoryTest::add_opml(const std::vector<std::string>& urls) {
  std::string outlines;
  for (const auto& url : urls) {
    outlines += "<outline type=\"rss\" text=\"feed\" xmlUrl=\"" + url + "\"/>";
  }
  const auto file = m_dir.path() / "feeds.opml";
  write_file(file, "<?xml version=\"1.0\"?><opml version=\"2.0\"><head/><body>" + outlines +
                       "</body></opml>");
  const auto added = run({"add", "--opml", file.string()});
  ASSERT_EQ(added.status, 0) << added.out;
}

std::map<std::string, std::string> DirectoryTest::slugs_by_url() {
  std::map<std::string, std::string> slugs;
  for (const auto& feed : nlohmann::json::parse(run({"list", "--json"}).out)) {
    if (feed["show_slug"].is_string()) {
      slugs[feed["url"]] = feed["show_slug"];
    }
  }
  return slugs;
}

} // namespace podcrawl::testing
