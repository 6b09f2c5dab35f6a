#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "dates_internal.hpp"

namespace podcrawl::feed {
namespace {

using internal::parse_date;

struct DateCase {
  std::string_view text;
  std::int64_t expected; // Unix seconds; the comment gives the same instant in UTC
};

// Inputs as real feeds write them; expected instants worked out by hand from the text.
constexpr DateCase k_accepted[] = {
    {"Thu, 01 Jan 2004 19:48:21 GMT", 1072986501}, // RFC 822 as specified: 2004-01-01T19:48:21Z
    {"Thu, 01 Jan 04 19:48:21 GMT", 1072986501},   // two-digit year: 2004-01-01T19:48:21Z
    {"Wed, 02 Oct 02 08:00:00 EST", 1033563600}, // two-digit year, named zone: 2002-10-02T13:00:00Z
    {"Tue, 10 Jun 99 04:00:00 GMT",
     928987200}, // two-digit year of the last century: 1999-06-10T04:00:00Z
    {"Thu,  5 Apr 2012 10:00:00 GMT",
     1333620000}, // one-digit day padded with a space: 2012-04-05T10:00:00Z
    {"Wed, 19 Aug 2009 18:28:00 Etc/GMT",
     1250706480}, // tz database zone name: 2009-08-19T18:28:00Z
    {"Wed, 19 Feb 2012 22:40:00 GMT-01:01", 1329694860}, // GMT with an offset: 2012-02-19T23:41:00Z
    {"Wed, 19 Feb 2012 22:40:00 -01:01", 1329694860}, // offset with a colon: 2012-02-19T23:41:00Z
    {"Mon, 13 Feb, 2012 06:28:00 UTC", 1329114480},   // comma after the month: 2012-02-13T06:28:00Z
    {"Thu, 01 Jan 2004 00:00 GMT", 1072915200},       // no seconds: 2004-01-01T00:00:00Z
    {"Thu, 01 Jan 2004", 1072915200},                 // no time: 2004-01-01T00:00:00Z
    {"Mon, 26 January 2004 16:31:00 ET",
     1075152660}, // full month name, generic zone: 2004-01-26T21:31:00Z
    {"Mon, 26 January 2004 16:31:00 AT", 1075149060}, // Atlantic time: 2004-01-26T20:31:00Z
    {"Mon, 26 January 2004 16:31:00 CT", 1075156260}, // Central time: 2004-01-26T22:31:00Z
    {"Mon, 26 January 2004 16:31:00 MT", 1075159860}, // Mountain time: 2004-01-26T23:31:00Z
    {"Mon, 26 January 2004 16:31:00 PT", 1075163460}, // Pacific time: 2004-01-27T00:31:00Z
    {"Thu Aug 30 2012 17:26:16 +0200",
     1346340376}, // JavaScript Date.toString order: 2012-08-30T15:26:16Z
    {"Fri,24 Nov 2023 18:28:36 -0000",
     1700850516},                             // no space after the comma: 2023-11-24T18:28:36Z
    {"Sun Jan  4 16:29:06 2004", 1073233746}, // asctime: 2004-01-04T16:29:06Z
    {"Sun Jul 15 01:16:00 +0000 2012", 1342314960},    // asctime with a zone: 2012-07-15T01:16:00Z
    {"Tue, 10 Jun 2025 04:00:00 EST", 1749546000},     // EST: 2025-06-10T09:00:00Z
    {"Tue, 10 Jun 2025 04:00:00 EDT", 1749542400},     // EDT: 2025-06-10T08:00:00Z
    {"Tue, 10 Jun 2025 04:00:00 CST", 1749549600},     // CST: 2025-06-10T10:00:00Z
    {"Tue, 10 Jun 2025 04:00:00 CDT", 1749546000},     // CDT: 2025-06-10T09:00:00Z
    {"Tue, 10 Jun 2025 04:00:00 MST", 1749553200},     // MST: 2025-06-10T11:00:00Z
    {"Tue, 10 Jun 2025 04:00:00 PST", 1749556800},     // PST: 2025-06-10T12:00:00Z
    {"Tue, 10 Jun 2025 04:00:00 PDT", 1749553200},     // PDT: 2025-06-10T11:00:00Z
    {"Tue, 10 Jun 2025 04:00:00 CET", 1749524400},     // CET: 2025-06-10T03:00:00Z
    {"Tue, 10 Jun 2025 04:00:00 CEST", 1749520800},    // CEST: 2025-06-10T02:00:00Z
    {"Tue, 10 Jun 2025 04:00:00 BST", 1749524400},     // BST: 2025-06-10T03:00:00Z
    {"Tue, 10 Jun 2025 04:00:00 JST", 1749495600},     // JST: 2025-06-09T19:00:00Z
    {"Tue, 10 Jun 2025 04:00:00 UT", 1749528000},      // UT: 2025-06-10T04:00:00Z
    {"Tue, 10 Jun 2025 04:00:00 Z", 1749528000},       // Z: 2025-06-10T04:00:00Z
    {"Thu, 30 Apr 2015 08:57:00 MET", 1430380620},     // MET: 2015-04-30T07:57:00Z
    {"Thu, 30 Apr 2015 08:57:00 MEST", 1430377020},    // MEST: 2015-04-30T06:57:00Z
    {"tue, 10 jun 2025 04:00:00 gmt", 1749528000},     // lower case: 2025-06-10T04:00:00Z
    {"TUE, 10 JUN 2025 04:00:00 GMT", 1749528000},     // upper case: 2025-06-10T04:00:00Z
    {"10 Jun 2025 04:00:00 GMT", 1749528000},          // no weekday: 2025-06-10T04:00:00Z
    {"Tuesday, 10 Jun 2025 04:00:00 GMT", 1749528000}, // full weekday: 2025-06-10T04:00:00Z
    {"Tue, 10 Jun 2025 04:00 +0000", 1749528000}, // no seconds, numeric zone: 2025-06-10T04:00:00Z
    {"Tue, 10 Jun 2025 04:00:00", 1749528000},    // no zone means UTC: 2025-06-10T04:00:00Z
    {"Sat, 06 Sept 2025 12:00:00 GMT", 1757160000},      // Sept: 2025-09-06T12:00:00Z
    {"Sat, 06 September 2025 12:00:00 GMT", 1757160000}, // September: 2025-09-06T12:00:00Z
    {"Tue, 10 Jun 2025 04:00:00 +05:30", 1749508200},    // half-hour offset: 2025-06-09T22:30:00Z
    {"Tue, 10 Jun 2025 04:00:00 -0800", 1749556800},     // negative offset: 2025-06-10T12:00:00Z
    {"Tue, 10 Jun 2025 4:00:00 PM GMT", 1749571200},     // 12-hour clock: 2025-06-10T16:00:00Z
    {"Tue, 10 Jun. 2025 04:00:00 GMT", 1749528000}, // abbreviation with a dot: 2025-06-10T04:00:00Z
    {"Thu, 01 Jan 0100 00:00:01 +0100",
     -59011462799}, // four-digit year before 1000: 0099-12-31T23:00:01Z
    {"Fri, 2006/09/15 08:19:53 EDT", 1158322793}, // slashed date: 2006-09-15T12:19:53Z
    {"  Tue, 10 Jun 2025 04:00:00 GMT\n",
     1749528000},                                  // surrounding whitespace: 2025-06-10T04:00:00Z
    {"2003-12-31T10:14:55Z", 1072865695},          // RFC 3339: 2003-12-31T10:14:55Z
    {"2003-12-31T10:14:55-08:00", 1072894495},     // RFC 3339 negative offset: 2003-12-31T18:14:55Z
    {"2003-12-31T18:14:55+08:00", 1072865695},     // RFC 3339 positive offset: 2003-12-31T10:14:55Z
    {"2007-04-23T23:25:47.538+10:00", 1177334747}, // fraction and offset: 2007-04-23T13:25:47Z
    {"2003-12-31T10:14:55.1234Z", 1072865695},     // long fraction: 2003-12-31T10:14:55Z
    {"2003-12-31", 1072828800},                    // date only: 2003-12-31T00:00:00Z
    {"2003-12", 1070236800},                       // year and month: 2003-12-01T00:00:00Z
    {"2003", 1041379200},                          // year only: 2003-01-01T00:00:00Z
    {"2004-02-28T18:14:55-08:00",
     1078020895}, // offset crossing into a leap day: 2004-02-29T02:14:55Z
    {"2004-07-08 23:56:58 -00:20", 1089332218}, // space separators: 2004-07-09T00:16:58Z
    {"2004-07-08 23:56:58", 1089331018},        // space separator, no zone: 2004-07-08T23:56:58Z
    {"2004-07-08 23:56:58.0", 1089331018},      // space separator, fraction: 2004-07-08T23:56:58Z
    {"20031231T101455Z", 1072865695},           // ISO 8601 basic format: 2003-12-31T10:14:55Z
    {"2003-335", 1070236800},                   // ordinal date: 2003-12-01T00:00:00Z
    {"031231", 1072828800},                     // two-digit-year basic date: 2003-12-31T00:00:00Z
    {"03-12-31", 1072828800},                 // two-digit-year extended date: 2003-12-31T00:00:00Z
    {"-0312", 1070236800},                    // truncated year and month: 2003-12-01T00:00:00Z
    {"03335", 1070236800},                    // two-digit-year ordinal date: 2003-12-01T00:00:00Z
    {"2025-06-10t04:00:00z", 1749528000},     // lower-case ISO: 2025-06-10T04:00:00Z
    {"2025-06-10T04:00:00+0200", 1749520800}, // ISO offset without colon: 2025-06-10T02:00:00Z
    {"2025-06-10T04:00Z", 1749528000},        // ISO without seconds: 2025-06-10T04:00:00Z
    {"2024-02-29T12:00:00Z", 1709208000},     // leap day: 2024-02-29T12:00:00Z
    {"Κυρ, 11 Ιούλ 2004 12:00:00 EST", 1089565200}, // Greek names: 2004-07-11T17:00:00Z
    {"2004-július-13T9:15-05:00", 1089728100},      // Hungarian month: 2004-07-13T14:15:00Z
    {"2004-05-25 오후 11:23:17", 1085494997}, // Korean afternoon, Korea time: 2004-05-25T14:23:17Z
    {"2004년 05월 28일  01:31:15", 1085675475},      // Korean date markers: 2004-05-27T16:31:15Z
    {"Seg, 24 Set 2018 19:42:40 -0300", 1537828960}, // Portuguese names: 2018-09-24T22:42:40Z
    {"Di, 03 Dez 2024 10:00:00 +0100", 1733216400},  // German names: 2024-12-03T09:00:00Z
};

constexpr std::string_view k_rejected[] = {
    "",
    "   ",
    "not a date",
    "yesterday",
    "32 Jan 2004 00:00:00 GMT",
    "Thu, 30 Feb 2004 00:00:00 GMT",
    "Thu, 29 Feb 2003 00:00:00 GMT",
    "Thu, 01 Foo 2004 00:00:00 GMT",
    "Tue, 10 Jun 2025 04:00:00 XYZ",
    "Tue, 10 Jun 2025 25:00:00 GMT",
    "Tue, 10 Jun 2025 04:61:00 GMT",
    "Jan 2004",
    "Jan Feb 10 2004",
    "12:00:00",
    "2003-13-01",
    "2003-02-30",
    "2003-12-31T25:00:00Z",
    "2003-12-31T10:61:00Z",
    "2003-12-31T10:14:55Zjunk",
    "2004-01-01T10:00:00+25:00",
    "0000-01-01",
    "1e9",
    "--",
    "2003-12-31T",
    "Tue, 10 Jun 2025 04:00:00 GMT GMT GMT GMT GMT GMT GMT GMT GMT GMT GMT GMT GMT GMT GMT GMT "
    "GMT GMT GMT GMT GMT GMT GMT GMT GMT GMT",
};

TEST(ParseDate, AcceptsTheDateFormsFeedsUse) {
  for (const DateCase& row : k_accepted) {
    SCOPED_TRACE(std::string(row.text));
    auto parsed = parse_date(row.text);
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, row.expected);
  }
}

TEST(ParseDate, RejectsTextThatIsNoDate) {
  for (std::string_view text : k_rejected) {
    SCOPED_TRACE(std::string(text));
    EXPECT_FALSE(parse_date(text).has_value());
  }
}

TEST(ParseDate, AcceptedTableCoversAtLeastSixtyForms) {
  EXPECT_GE(std::size(k_accepted), 60u);
}

} // namespace
} // namespace podcrawl::feed
