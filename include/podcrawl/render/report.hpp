#pragma once

#include <functional>
#include <string>
#include <vector>

#include "podcrawl/l10n/localizer.hpp"
#include "podcrawl/model/report.hpp"

namespace podcrawl::render {

// Charts drawn as inline SVG for the crawl health report: no script, no external file. Each
// starts with a <title> that names it (the <svg> is role="img", labelled by it); the figures
// themselves go in a table beside the chart. Colours come from the page's stylesheet through the
// classes series-0, series-1, …; right_to_left mirrors the drawing (time runs from right to
// left, bars grow leftwards) and sets the text's direction.

struct ChartSeries {
  std::string label;
  std::vector<double> values; // one per column
};

// Columns along a time axis, each a stack of its series' values.
struct ColumnChart {
  std::string id;    // unique in the page: the title's id is id + "-title"
  std::string title; // the <title>
  std::vector<ChartSeries> series;
  std::string first_label; // under the first and the last column
  std::string last_label;
  bool right_to_left = false;
};

// Horizontal bars, one per labelled row, each with its value written after it.
struct BarChart {
  std::string id;
  std::string title;
  std::vector<std::string> labels;
  std::vector<double> values;
  std::vector<std::string> value_labels; // as the locale writes each value
  bool isolate_labels = false;           // labels are text from outside (host names): isolated, LTR
  bool right_to_left = false;
};

// `number` writes an axis value in the locale's digits.
std::string column_chart_svg(const ColumnChart& chart,
                             const std::function<std::string(double)>& number);
std::string bar_chart_svg(const BarChart& chart);

// The crawl health report: one self-contained HTML page (its style inline, no script, no image
// but its charts), localized by `localizer`, from the report model and nothing else.
std::string report_page(const model::CrawlReport& report, const l10n::Localizer& localizer);

} // namespace podcrawl::render
