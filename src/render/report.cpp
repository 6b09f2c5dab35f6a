#include "podcrawl/render/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "podcrawl/core/time.hpp"
#include "podcrawl/html/escape.hpp"

namespace podcrawl::render {

namespace {

using model::FetchKind;

// Geometry of the charts, in SVG user units (CSS pixels at 100%).
constexpr double k_width = 640;
constexpr double k_column_height = 220;
constexpr double k_axis_space = 56; // the axis values' side
constexpr double k_top_space = 10;
constexpr double k_bottom_space = 26; // the first and last column's labels
constexpr double k_bar_height = 18;
constexpr double k_bar_gap = 8;
constexpr double k_label_space = 220; // bar charts: the labels' side
constexpr double k_value_space = 90;  // after the longest bar, its value
// Labels longer than this many characters are cut with an ellipsis.
constexpr std::size_t k_max_label_chars = 34;
// The rows of a bar chart of hosts.
constexpr std::size_t k_chart_hosts = 10;
// Unicode isolates: text from outside keeps its own direction inside the chart's.
constexpr std::string_view k_left_to_right_isolate = "\u2066";
constexpr std::string_view k_pop_isolate = "\u2069";

std::string attribute(std::string_view text) {
  return html::escaped(text, html::k_escape_attribute);
}

// Text escaped, with the control characters HTML forbids (C0 but tab, line feed and carriage
// return; DEL; C1) written as spaces: errors and host names come from strangers.
std::string text(std::string_view text) {
  std::string printable;
  printable.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if ((byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r') || byte == 0x7F) {
      printable += ' ';
    } else if (byte == 0xC2 && i + 1 < text.size() &&
               static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
      printable += ' ';
      ++i;
    } else {
      printable += text[i];
    }
  }
  return html::escaped(printable, html::k_escape_text);
}

// A feed's URL without the user name and password it may carry.
std::string without_userinfo(std::string_view url) {
  const auto scheme = url.find("://");
  if (scheme == std::string_view::npos) {
    return std::string(url);
  }
  const auto authority = scheme + 3;
  const auto end = url.find_first_of("/?#", authority);
  const auto at = url.substr(0, end).rfind('@');
  if (at == std::string_view::npos || at < authority) {
    return std::string(url);
  }
  return std::string(url.substr(0, authority)) + std::string(url.substr(at + 1));
}

// A coordinate as SVG carries it: at most one decimal, no trailing zeros.
std::string coordinate(double value) {
  const double rounded = std::round(value * 10.0) / 10.0;
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", rounded == 0.0 ? 0.0 : rounded);
  std::string out = buffer;
  if (out.ends_with(".0")) {
    out.resize(out.size() - 2);
  }
  return out;
}

// The top of an axis: the smallest of 2, 4, 5, 10 × 10^k (5 only from 50 on) at or above value,
// at least 2, so that its half, the middle gridline, is a whole number too.
double nice_ceiling(double value) {
  if (!(value > 2)) {
    return 2;
  }
  const double magnitude = std::pow(10.0, std::floor(std::log10(value)));
  for (const double step : {1.0, 2.0, 4.0, 5.0, 10.0}) {
    const double top = step * magnitude;
    if (top >= value && std::fmod(top, 2.0) == 0.0) {
      return top;
    }
  }
  return 10.0 * magnitude;
}

// Cut text to k_max_label_chars characters (UTF-8 aware), with an ellipsis when cut.
std::string shortened(std::string_view label) {
  std::size_t characters = 0;
  for (std::size_t i = 0; i < label.size(); ++i) {
    if ((static_cast<unsigned char>(label[i]) & 0xC0) != 0x80 && ++characters > k_max_label_chars) {
      return std::string(label.substr(0, i)) + "\u2026";
    }
  }
  return std::string(label);
}

std::string svg_open(std::string_view id, std::string_view title, double height,
                     bool right_to_left) {
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\"";
  out += " viewBox=\"0 0 " + coordinate(k_width) + " " + coordinate(height) + "\"";
  out += " width=\"" + coordinate(k_width) + "\" height=\"" + coordinate(height) + "\"";
  out += " aria-labelledby=\"" + attribute(std::string(id) + "-title") + "\"";
  out += right_to_left ? " direction=\"rtl\">\n" : ">\n";
  out +=
      "<title id=\"" + attribute(std::string(id) + "-title") + "\">" + text(title) + "</title>\n";
  return out;
}

// x of a box drawn from x to x + width, mirrored when right to left.
double placed(double x, double width, bool right_to_left) {
  return right_to_left ? k_width - x - width : x;
}

std::string rect(double x, double y, double width, double height, std::string_view css_class) {
  return "<rect class=\"" + std::string(css_class) + "\" x=\"" + coordinate(x) + "\" y=\"" +
         coordinate(y) + "\" width=\"" + coordinate(width) + "\" height=\"" + coordinate(height) +
         "\"/>\n";
}

// Text anchored at x by its start or end in the chart's own direction.
std::string label(double x, double y, std::string_view anchor, std::string_view content) {
  return "<text x=\"" + coordinate(x) + "\" y=\"" + coordinate(y) + "\" text-anchor=\"" +
         std::string(anchor) + "\">" + text(content) + "</text>\n";
}

} // namespace

std::string column_chart_svg(const ColumnChart& chart,
                             const std::function<std::string(double)>& number) {
  const bool rtl = chart.right_to_left;
  std::size_t columns = 0;
  for (const auto& series : chart.series) {
    columns = std::max(columns, series.values.size());
  }
  double highest = 0;
  for (std::size_t c = 0; c < columns; ++c) {
    double stack = 0;
    for (const auto& series : chart.series) {
      stack += c < series.values.size() ? std::max(series.values[c], 0.0) : 0.0;
    }
    highest = std::max(highest, stack);
  }
  const double top = nice_ceiling(highest);
  const double plot_left = k_axis_space;
  const double plot_width = k_width - k_axis_space - 4;
  const double plot_height = k_column_height - k_top_space - k_bottom_space;
  const double base = k_top_space + plot_height;

  std::string out = svg_open(chart.id, chart.title, k_column_height, rtl);
  // The grid: the axis at 0, half and the top, each value beside it.
  for (const double share : {0.0, 0.5, 1.0}) {
    const double y = base - plot_height * share;
    out += "<line class=\"grid\" x1=\"" + coordinate(placed(plot_left, 0, rtl)) + "\" y1=\"" +
           coordinate(y) + "\" x2=\"" + coordinate(placed(plot_left + plot_width, 0, rtl)) +
           "\" y2=\"" + coordinate(y) + "\"/>\n";
    out += label(placed(plot_left - 6, 0, rtl), y + 4, "end", number(top * share));
  }
  if (columns > 0) {
    const double slot = plot_width / static_cast<double>(columns);
    const double width = std::max(1.0, slot * 0.7);
    for (std::size_t c = 0; c < columns; ++c) {
      const double x = plot_left + slot * static_cast<double>(c) + (slot - width) / 2;
      double y = base;
      for (std::size_t s = 0; s < chart.series.size(); ++s) {
        const auto& values = chart.series[s].values;
        const double value = c < values.size() ? std::max(values[c], 0.0) : 0.0;
        if (value <= 0) {
          continue;
        }
        const double height = plot_height * value / top;
        y -= height;
        out += rect(placed(x, width, rtl), y, width, height, "series-" + std::to_string(s));
      }
    }
    const double label_y = base + 18;
    out += label(placed(plot_left, 0, rtl), label_y, "start", chart.first_label);
    if (columns > 1) {
      out += label(placed(plot_left + plot_width, 0, rtl), label_y, "end", chart.last_label);
    }
  }
  out += "</svg>";
  return out;
}

std::string bar_chart_svg(const BarChart& chart) {
  const bool rtl = chart.right_to_left;
  const std::size_t rows = std::min(chart.labels.size(), chart.values.size());
  const double height =
      std::max(1.0, static_cast<double>(rows) * (k_bar_height + k_bar_gap) + k_bar_gap);
  double highest = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    highest = std::max(highest, chart.values[r]);
  }
  const double plot_left = k_label_space;
  const double plot_width = k_width - k_label_space - k_value_space;
  std::string out = svg_open(chart.id, chart.title, height, rtl);
  for (std::size_t r = 0; r < rows; ++r) {
    const double y = k_bar_gap + static_cast<double>(r) * (k_bar_height + k_bar_gap);
    const double middle = y + k_bar_height / 2 + 4;
    std::string name = shortened(chart.labels[r]);
    if (chart.isolate_labels) {
      name = std::string(k_left_to_right_isolate) + name + std::string(k_pop_isolate);
    }
    out += label(placed(plot_left - 8, 0, rtl), middle, "end", name);
    const double value = std::max(chart.values[r], 0.0);
    const double width = highest > 0 ? plot_width * value / highest : 0;
    if (width > 0) {
      out += rect(placed(plot_left, std::max(width, 1.0), rtl), y, std::max(width, 1.0),
                  k_bar_height, "series-0");
    }
    const std::string& written = r < chart.value_labels.size() ? chart.value_labels[r] : "";
    out += label(placed(plot_left + width + 6, 0, rtl), middle, "start", written);
  }
  out += "</svg>";
  return out;
}

namespace {

// The page's style: no external file, so the page is whole when saved or mailed. Logical
// properties, so that it reads right to left as well.
constexpr std::string_view k_style = R"(
body { font-family: system-ui, sans-serif; color: #1a1a1a; background: #fff; margin: 0 auto;
  max-width: 60rem; padding: 1rem 1.5rem 3rem; line-height: 1.5; }
h1 { margin-block: 0.5rem; }
h2 { margin-block: 2rem 0.5rem; font-size: 1.25rem; }
.period { color: #4a4a4a; margin-block-start: 0; }
dl.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr));
  gap: 0.25rem 1.5rem; }
dl.figures div { border-block-end: 1px solid #ddd; padding-block: 0.25rem; }
dl.figures dt { color: #4a4a4a; font-size: 0.9rem; }
dl.figures dd { margin: 0; font-size: 1.25rem; font-weight: 600; }
svg.chart { max-width: 100%; height: auto; display: block; }
svg.chart text { font-size: 12px; fill: #1a1a1a; }
svg.chart .grid { stroke: #bbb; stroke-width: 1; }
.series-0 { fill: #1b6e3a; background: #1b6e3a; }
.series-1 { fill: #1f5fa8; background: #1f5fa8; }
.series-2 { fill: #b3261e; background: #b3261e; }
.failures .series-0 { fill: #b3261e; background: #b3261e; }
.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; }
.legend span { display: inline-block; inline-size: 0.9rem; block-size: 0.9rem;
  margin-inline-end: 0.4rem; vertical-align: -0.1rem; }
details { margin-block: 0.5rem 1rem; }
summary { cursor: pointer; color: #1f5fa8; }
table { border-collapse: collapse; margin-block: 0.5rem; font-size: 0.95rem; }
th, td { border-block-end: 1px solid #ddd; padding: 0.25rem 0.75rem; text-align: start; }
td.number { text-align: end; font-variant-numeric: tabular-nums; }
.feed-url { overflow-wrap: anywhere; }
)";

constexpr std::int64_t k_bytes_per_megabyte = 1'000'000;

// Builds the page; `t` is the localizer.
class ReportPage {
public:
  ReportPage(const model::CrawlReport& report, const l10n::Localizer& t)
      : m_report(report), m_t(t), m_rtl(t.right_to_left()) {}

  std::string html() {
    const std::string title = m_t.text("report.title");
    m_out = "<!DOCTYPE html>\n<html lang=\"" + attribute(m_t.tag()) + "\" dir=\"" +
            (m_rtl ? "rtl" : "ltr") + "\">\n<head>\n<meta charset=\"utf-8\">\n";
    m_out +=
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'\">\n";
    m_out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    m_out += "<meta name=\"robots\" content=\"noindex\">\n";
    m_out += "<title>" + text(title + " \u2014 " + m_t.text("site_name")) + "</title>\n";
    m_out += "<style>" + std::string(k_style) + "</style>\n</head>\n<body>\n<main>\n";
    m_out += "<h1>" + text(title) + "</h1>\n";
    m_out += "<p class=\"period\">" + text(m_t.count("report.period", m_report.days)) + " \u00b7 " +
             text_time(m_t.format("report.generated", m_t.date(m_report.now)), m_report.now) +
             "</p>\n";
    summary();
    outcomes_chart();
    new_episodes_chart();
    failures_chart();
    status_chart();
    host_charts();
    failing_feeds();
    websub_hubs();
    m_out += "</main>\n</body>\n</html>\n";
    return std::move(m_out);
  }

private:
  std::string number(std::int64_t n) const { return m_t.number(n); }

  // A figure that a test or a script can read back: <data value="N">.
  std::string data(std::string_view id, std::int64_t value) const {
    return "<data id=\"" + std::string(id) + "\" value=\"" + std::to_string(value) + "\">" +
           text(number(value)) + "</data>";
  }

  std::string text_time(const std::string& phrase, std::int64_t at) const {
    return "<time datetime=\"" + core::format_iso8601(at) + "\">" + text(phrase) + "</time>";
  }

  std::string milliseconds(std::optional<double> seconds) const {
    if (!seconds) {
      return "\u2014";
    }
    return m_t.count("report.milliseconds", std::llround(*seconds * 1000.0));
  }

  void figure(std::string_view label, const std::string& value_markup) {
    m_out += "<div><dt>" + text(label) + "</dt><dd>" + value_markup + "</dd></div>\n";
  }

  void summary() {
    const model::Stats& stats = m_report.stats;
    m_out += "<h2 id=\"summary\">" + text(m_t.text("report.summary")) + "</h2>\n";
    m_out += "<dl class=\"figures\">\n";
    figure(m_t.text("report.all_feeds"), data("feeds-total", stats.feeds_total));
    figure(m_t.text("report.active"), data("feeds-active", stats.feeds_active));
    figure(m_t.text("report.failing"), data("feeds-failing", stats.feeds_failing));
    figure(m_t.text("report.gone"), data("feeds-gone", stats.feeds_gone));
    figure(m_t.text("report.removed"), data("feeds-removed", stats.feeds_removed));
    figure(m_t.text("report.overdue"), data("feeds-overdue", m_report.overdue));
    figure(m_t.text("all_podcasts"), data("shows", stats.shows));
    figure(m_t.text("episode_list"), data("episodes", stats.episodes));
    m_out += "</dl>\n";

    m_out += "<h2 id=\"last-crawl\">" + text(m_t.text("report.last_crawl")) + "</h2>\n";
    if (!stats.last_crawl) {
      m_out += "<p>" + text(m_t.text("report.no_crawl")) + "</p>\n";
    } else {
      const model::CrawlRunStats& run = *stats.last_crawl;
      m_out += "<dl class=\"figures\">\n";
      figure(m_t.text("report.started"),
             run.started_at
                 ? text_time(m_t.relative_time(*run.started_at, m_report.now), *run.started_at)
                 : text(m_t.text("report.not_finished")));
      figure(m_t.text("report.finished"),
             run.finished_at
                 ? text_time(m_t.relative_time(*run.finished_at, m_report.now), *run.finished_at)
                 : text(m_t.text("report.not_finished")));
      figure(m_t.text("report.fetched"), data("last-fetched", run.fetched));
      figure(m_t.text("report.not_modified"), data("last-not-modified", run.not_modified));
      figure(m_t.text("report.failed"), data("last-failed", run.failed));
      figure(m_t.text("report.new_episodes"), data("last-new-episodes", run.new_episodes));
      m_out += "</dl>\n";
    }

    m_out += "<h2 id=\"period\">" + text(m_t.count("report.period", m_report.days)) + "</h2>\n";
    m_out += "<p>" + text(m_t.count("report.crawls", m_report.runs)) + " \u00b7 " +
             text(m_t.count("report.downloaded", m_report.total.bytes / k_bytes_per_megabyte)) +
             "</p>\n<dl class=\"figures\">\n";
    figure(m_t.text("report.requests"), data("period-requests", m_report.total.requests()));
    figure(m_t.text("report.failures"), data("period-failures", m_report.total.failures()));
    figure(m_t.text("report.new_episodes"),
           data("period-new-episodes", m_report.total.new_episodes));
    figure(m_t.text("report.median_latency"), text(milliseconds(m_report.median_seconds)));
    figure(m_t.text("report.slow_latency"), text(milliseconds(m_report.slow_seconds)));
    m_out += "</dl>\n";
  }

  // A chart's section: its heading, the chart, an optional legend and its table.
  void open_section(std::string_view id, const std::string& heading,
                    std::string_view css_class = {}) {
    m_out += "<section aria-labelledby=\"" + std::string(id) + "-heading\"";
    if (!css_class.empty()) {
      m_out += " class=\"" + std::string(css_class) + "\"";
    }
    m_out += ">\n<h2 id=\"" + std::string(id) + "-heading\">" + text(heading) + "</h2>\n";
  }

  // A chart, or the sentence that says the period has nothing to draw.
  void chart_or_nothing(const std::string& svg, bool nothing,
                        std::string_view nothing_key = "report.no_data") {
    m_out += nothing ? "<p>" + text(m_t.text(nothing_key)) + "</p>\n" : svg + "\n";
  }

  // The figures behind a chart: a table inside <details>.
  void table(const std::vector<std::string>& headings,
             const std::vector<std::vector<std::string>>& rows, std::size_t text_columns = 1) {
    m_out += "<details><summary>" + text(m_t.text("report.data_table")) + "</summary>\n<table>\n";
    m_out += "<thead><tr>";
    for (const auto& heading : headings) {
      m_out += "<th scope=\"col\">" + text(heading) + "</th>";
    }
    m_out += "</tr></thead>\n<tbody>\n";
    for (const auto& row : rows) {
      m_out += "<tr>";
      for (std::size_t i = 0; i < row.size(); ++i) {
        if (i == 0) {
          m_out += "<th scope=\"row\">" + row[i] + "</th>";
        } else {
          m_out += i < text_columns ? "<td>" : "<td class=\"number\">";
          m_out += row[i] + "</td>";
        }
      }
      m_out += "</tr>\n";
    }
    m_out += "</tbody>\n</table>\n</details>\n";
  }

  std::string day_label(std::int64_t day) const { return m_t.date(day); }

  std::function<std::string(double)> axis_number() const {
    return [this](double value) { return m_t.number(std::llround(value)); };
  }

  void legend(const std::vector<std::string>& labels) {
    m_out += "<ul class=\"legend\">\n";
    for (std::size_t i = 0; i < labels.size(); ++i) {
      m_out += "<li><span class=\"series-" + std::to_string(i) + "\"></span>" + text(labels[i]) +
               "</li>\n";
    }
    m_out += "</ul>\n";
  }

  void outcomes_chart() {
    const std::string heading = m_t.text("report.outcomes_chart");
    open_section("outcomes", heading);
    ColumnChart chart{"outcomes-chart", heading, {}, {}, {}, m_rtl};
    chart.series = {{m_t.text("report.fetched"), {}},
                    {m_t.text("report.not_modified"), {}},
                    {m_t.text("report.failed"), {}}};
    std::vector<std::vector<std::string>> rows;
    for (const auto& [day, figures] : m_report.by_day) {
      const std::int64_t unchanged =
          figures[FetchKind::unchanged] + figures[FetchKind::not_modified];
      chart.series[0].values.push_back(static_cast<double>(figures[FetchKind::ok]));
      chart.series[1].values.push_back(static_cast<double>(unchanged));
      chart.series[2].values.push_back(static_cast<double>(figures.failures()));
      rows.push_back({text_time(day_label(day), day), text(number(figures[FetchKind::ok])),
                      text(number(unchanged)), text(number(figures.failures()))});
    }
    if (!m_report.by_day.empty()) {
      chart.first_label = day_label(m_report.by_day.front().first);
      chart.last_label = day_label(m_report.by_day.back().first);
    }
    if (m_report.total.requests() == 0) {
      m_out += "<p>" + text(m_t.text("report.no_data")) + "</p>\n";
    }
    m_out += column_chart_svg(chart, axis_number()) + "\n";
    legend({chart.series[0].label, chart.series[1].label, chart.series[2].label});
    table({m_t.text("report.day"), chart.series[0].label, chart.series[1].label,
           chart.series[2].label},
          rows);
    m_out += "</section>\n";
  }

  void new_episodes_chart() {
    const std::string heading = m_t.text("report.new_episodes_chart");
    open_section("new-episodes", heading);
    ColumnChart chart{"new-episodes-chart", heading, {}, {}, {}, m_rtl};
    chart.series = {{m_t.text("report.new_episodes"), {}}};
    std::vector<std::vector<std::string>> rows;
    for (const auto& [day, figures] : m_report.by_day) {
      chart.series[0].values.push_back(static_cast<double>(figures.new_episodes));
      rows.push_back({text_time(day_label(day), day), text(number(figures.new_episodes))});
    }
    if (!m_report.by_day.empty()) {
      chart.first_label = day_label(m_report.by_day.front().first);
      chart.last_label = day_label(m_report.by_day.back().first);
    }
    m_out += column_chart_svg(chart, axis_number()) + "\n";
    table({m_t.text("report.day"), m_t.text("report.new_episodes")}, rows);
    m_out += "</section>\n";
  }

  // One row per label, the value written in the locale's digits.
  void bars(std::string_view id, const std::string& heading, std::string_view css_class,
            const std::vector<std::pair<std::string, std::int64_t>>& entries,
            const std::string& label_heading, const std::string& value_heading) {
    open_section(id, heading, css_class);
    BarChart chart{std::string(id) + "-chart", heading, {}, {}, {}, false, m_rtl};
    std::vector<std::vector<std::string>> rows;
    for (const auto& [name, value] : entries) {
      chart.labels.push_back(name);
      chart.values.push_back(static_cast<double>(value));
      chart.value_labels.push_back(number(value));
      rows.push_back({text(name), text(number(value))});
    }
    chart_or_nothing(bar_chart_svg(chart), rows.empty());
    table({label_heading, value_heading}, rows);
    m_out += "</section>\n";
  }

  void failures_chart() {
    static constexpr std::pair<FetchKind, const char*> k_kinds[] = {
        {FetchKind::network, "report.failure_network"},
        {FetchKind::client_error, "report.failure_client"},
        {FetchKind::server_error, "report.failure_server"},
        {FetchKind::http_other, "report.failure_http_other"},
        {FetchKind::not_a_feed, "report.failure_not_a_feed"},
        {FetchKind::too_large, "report.failure_too_large"},
        {FetchKind::refused, "report.failure_refused"},
        {FetchKind::gone, "report.failure_gone"},
    };
    std::vector<std::pair<std::string, std::int64_t>> entries;
    for (const auto& [kind, key] : k_kinds) {
      entries.emplace_back(m_t.text(key), m_report.total[kind]);
    }
    bars("failures", m_t.text("report.failures_chart"), "failures", entries,
         m_t.text("report.kind"), m_t.text("report.count"));
  }

  void status_chart() {
    const model::Stats& stats = m_report.stats;
    bars("statuses", m_t.text("report.status_chart"), {},
         {{m_t.text("report.active"), stats.feeds_active},
          {m_t.text("report.failing"), stats.feeds_failing},
          {m_t.text("report.gone"), stats.feeds_gone},
          {m_t.text("report.removed"), stats.feeds_removed}},
         m_t.text("report.status"), m_t.text("report.count"));
  }

  void host_charts() {
    // Slowest: by the 90th percentile of their latency.
    std::vector<const model::HostFigures*> hosts;
    for (const auto& host : m_report.hosts) {
      if (host.slow_seconds) {
        hosts.push_back(&host);
      }
    }
    std::stable_sort(hosts.begin(), hosts.end(), [](const auto* a, const auto* b) {
      return *a->slow_seconds > *b->slow_seconds;
    });
    hosts.resize(std::min(hosts.size(), k_chart_hosts));
    {
      const std::string heading = m_t.text("report.slowest_hosts");
      open_section("slowest-hosts", heading);
      BarChart chart{"slowest-hosts-chart", heading, {}, {}, {}, true, m_rtl};
      std::vector<std::vector<std::string>> rows;
      for (const auto* host : hosts) {
        chart.labels.push_back(host->host);
        chart.values.push_back(*host->slow_seconds);
        chart.value_labels.push_back(milliseconds(host->slow_seconds));
        rows.push_back(
            {"<bdi>" + text(host->host) + "</bdi>", text(number(host->figures.requests())),
             text(milliseconds(host->median_seconds)), text(milliseconds(host->slow_seconds))});
      }
      chart_or_nothing(bar_chart_svg(chart), rows.empty());
      table({m_t.text("report.host"), m_t.text("report.requests"),
             m_t.text("report.median_latency"), m_t.text("report.slow_latency")},
            rows);
      m_out += "</section>\n";
    }
    // Most failing: by their failures.
    hosts.clear();
    for (const auto& host : m_report.hosts) {
      if (host.figures.failures() > 0) {
        hosts.push_back(&host);
      }
    }
    std::stable_sort(hosts.begin(), hosts.end(), [](const auto* a, const auto* b) {
      return a->figures.failures() > b->figures.failures();
    });
    hosts.resize(std::min(hosts.size(), k_chart_hosts));
    const std::string heading = m_t.text("report.failing_hosts");
    open_section("failing-hosts", heading, "failures");
    BarChart chart{"failing-hosts-chart", heading, {}, {}, {}, true, m_rtl};
    std::vector<std::vector<std::string>> rows;
    for (const auto* host : hosts) {
      chart.labels.push_back(host->host);
      chart.values.push_back(static_cast<double>(host->figures.failures()));
      chart.value_labels.push_back(number(host->figures.failures()));
      rows.push_back({"<bdi>" + text(host->host) + "</bdi>", text(number(host->figures.requests())),
                      text(number(host->figures.failures()))});
    }
    chart_or_nothing(bar_chart_svg(chart), rows.empty(), "report.no_failing_hosts");
    table({m_t.text("report.host"), m_t.text("report.requests"), m_t.text("report.failures")},
          rows);
    m_out += "</section>\n";
  }

  void failing_feeds() {
    m_out +=
        "<section aria-labelledby=\"failing-feeds-heading\">\n<h2 id=\"failing-feeds-heading\">" +
        text(m_t.text("report.failing_feeds")) + "</h2>\n";
    if (m_report.failing_feeds.empty()) {
      m_out += "<p>" + text(m_t.text("report.no_failing_feeds")) + "</p>\n</section>\n";
      return;
    }
    m_out += "<table id=\"failing-feeds\">\n<thead><tr><th scope=\"col\">" +
             text(m_t.text("report.feed")) + "</th><th scope=\"col\">" +
             text(m_t.text("report.last_error")) + "</th><th scope=\"col\">" +
             text(m_t.text("report.failing_since")) + "</th></tr></thead>\n<tbody>\n";
    for (const auto& feed : m_report.failing_feeds) {
      m_out += "<tr><td class=\"feed-url\" dir=\"ltr\">" + text(without_userinfo(feed.url)) +
               "</td><td dir=\"auto\">" + text(feed.last_error) + "</td><td>";
      if (feed.failing_since) {
        m_out +=
            text_time(m_t.relative_time(*feed.failing_since, m_report.now), *feed.failing_since);
      } else {
        m_out += "\u2014";
      }
      m_out += "</td></tr>\n";
    }
    m_out += "</tbody>\n</table>\n";
    const auto more =
        m_report.failing_total - static_cast<std::int64_t>(m_report.failing_feeds.size());
    if (more > 0) {
      m_out += "<p>" + text(m_t.count("report.more_failing_feeds", more)) + "</p>\n";
    }
    m_out += "</section>\n";
  }

  // Each WebSub hub's new episodes by what saw them first, and its last push: a hub that went
  // silent shows as one whose poll count grows while its push count stands still.
  void websub_hubs() {
    const auto& hubs = m_report.stats.websub_hubs;
    if (hubs.empty()) {
      return;
    }
    m_out += "<section aria-labelledby=\"websub-hubs-heading\">\n<h2 id=\"websub-hubs-heading\">" +
             text(m_t.text("report.websub_hubs")) + "</h2>\n";
    m_out += "<table id=\"websub-hubs\">\n<thead><tr><th scope=\"col\">" +
             text(m_t.text("report.hub")) + "</th><th scope=\"col\">" +
             text(m_t.text("report.push_first")) + "</th><th scope=\"col\">" +
             text(m_t.text("report.poll_first")) + "</th><th scope=\"col\">" +
             text(m_t.text("report.last_push")) + "</th></tr></thead>\n<tbody>\n";
    for (const auto& hub : hubs) {
      m_out += "<tr><td class=\"feed-url\" dir=\"ltr\">" + text(without_userinfo(hub.hub)) +
               "</td><td><data class=\"push\" value=\"" + std::to_string(hub.push) + "\">" +
               number(hub.push) + "</data></td><td><data class=\"poll\" value=\"" +
               std::to_string(hub.poll) + "\">" + number(hub.poll) + "</data></td><td>";
      m_out += hub.last_push_at ? text_time(m_t.relative_time(*hub.last_push_at, m_report.now),
                                            *hub.last_push_at)
                                : std::string("\u2014");
      m_out += "</td></tr>\n";
    }
    m_out += "</tbody>\n</table>\n</section>\n";
  }

  const model::CrawlReport& m_report;
  const l10n::Localizer& m_t;
  const bool m_rtl;
  std::string m_out;
};

} // namespace

std::string report_page(const model::CrawlReport& report, const l10n::Localizer& localizer) {
  return ReportPage(report, localizer).html();
}

} // namespace podcrawl::render
