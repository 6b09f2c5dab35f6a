#!/usr/bin/env python3
"""Write the demo feeds of this folder: seven podcast feeds, their cover art and demo.opml.

Every show, title and description here was written for podcrawl's demo; none is a real
podcast. The output is deterministic (no clock, no randomness), so running this again on an
unchanged script reproduces the committed files byte for byte:

    python3 seeds/demo/generate.py            # writes next to this script
    python3 seeds/demo/generate.py --check    # exits 1 if a committed file differs

scripts/demo serves this folder on http://127.0.0.1:8088/; --base-url writes another base.
Standard library only.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import pathlib
import struct
import sys
import uuid
import zlib
from xml.sax.saxutils import escape, quoteattr

DEFAULT_BASE_URL = "http://127.0.0.1:8088"
HERE = pathlib.Path(__file__).resolve().parent

# The Podcasting 2.0 namespace's UUIDv5 namespace for <podcast:guid>.
PODCAST_GUID_NAMESPACE = uuid.UUID("ead4c236-bf58-58c6-a2c6-a6b28d128cb6")

NAMESPACES = {
    "itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd",
    "podcast": "https://podcastindex.org/namespace/1.0",
    "atom": "http://www.w3.org/2005/Atom",
    "content": "http://purl.org/rss/1.0/modules/content/",
}

UTC = dt.timezone.utc
DAY_NAMES = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
# Zone names RFC 822 allows, with their offsets; anything else is written numerically.
NAMED_ZONES = {"GMT": 0, "UT": 0, "EST": -5 * 60, "EDT": -4 * 60, "PST": -8 * 60}


def zone(minutes: int) -> dt.timezone:
    return dt.timezone(dt.timedelta(minutes=minutes))


def rfc822(moment: dt.datetime, zone_label: str = "+0000") -> str:
    """Format an aware datetime as an RFC 822 date in the given zone ("+0330", "GMT", ...)."""
    if zone_label in NAMED_ZONES:
        offset = NAMED_ZONES[zone_label]
        suffix = zone_label
    else:
        sign = -1 if zone_label[0] == "-" else 1
        offset = sign * (int(zone_label[1:3]) * 60 + int(zone_label[3:5]))
        suffix = zone_label
    local = moment.astimezone(zone(offset))
    return (f"{DAY_NAMES[local.weekday()]}, {local.day:02d} {MONTH_NAMES[local.month - 1]} "
            f"{local.year} {local.hour:02d}:{local.minute:02d}:{local.second:02d} {suffix}")


def podcast_guid(feed_url: str) -> str:
    """The <podcast:guid> the namespace specifies: UUIDv5 of the URL without scheme."""
    bare = feed_url.split("://", 1)[-1].rstrip("/")
    return str(uuid.uuid5(PODCAST_GUID_NAMESPACE, bare))


def clock(seconds: int, style: str) -> str:
    """An itunes:duration in one of the forms feeds use."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if style == "seconds":
        return str(seconds)
    if style == "hh:mm:ss":
        return f"{hours:02d}:{minutes:02d}:{secs:02d}"
    if style == "h:mm:ss":
        return f"{hours}:{minutes:02d}:{secs:02d}"
    if style == "mm:ss":  # minutes past 59 are allowed here, as many feeds do it
        return f"{hours * 60 + minutes:02d}:{secs:02d}"
    if style == "m:ss":
        return f"{hours * 60 + minutes}:{secs:02d}"
    raise ValueError(style)


@dataclasses.dataclass
class Episode:
    guid: str | None
    title: str
    published: dt.datetime
    zone_label: str
    description: str
    enclosure_url: str | None = None
    enclosure_type: str = "audio/mpeg"
    duration_seconds: int = 0
    duration_style: str = "hh:mm:ss"
    description_cdata: bool = True
    content_encoded: str | None = None
    link: str | None = None
    explicit: str | None = None
    season: int | None = None
    number: int | None = None
    episode_type: str | None = None
    image: str | None = None
    transcripts: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    chapters: str | None = None
    guid_is_permalink: bool = False


@dataclasses.dataclass
class Channel:
    file_name: str
    title: str
    link: str
    language: str
    description: str
    author: str
    owner_name: str
    owner_email: str
    categories: list[tuple[str, str | None]]
    explicit: str
    copyright: str
    episodes: list[Episode]
    encoding: str = "utf-8"
    podcast_namespace: bool = False
    summary: str = ""


def text_element(name: str, text: str, indent: str, cdata: bool = False, **attrs: str) -> str:
    attributes = "".join(f" {key.replace('__', ':')}={quoteattr(value)}"
                         for key, value in attrs.items())
    if cdata:
        if "]]>" in text:
            raise ValueError(f"CDATA terminator inside {name}")
        body = f"<![CDATA[{text}]]>"
    else:
        body = escape(text)
    return f"{indent}<{name}{attributes}>{body}</{name}>\n"


def empty_element(name: str, indent: str, **attrs: str) -> str:
    attributes = "".join(f" {key.replace('__', ':')}={quoteattr(value)}"
                         for key, value in attrs.items())
    return f"{indent}<{name}{attributes}/>\n"


def render_feed(channel: Channel, base_url: str) -> bytes:
    feed_url = f"{base_url}/{channel.file_name}"
    art_url = f"{base_url}/art/{pathlib.Path(channel.file_name).stem}.png"
    used = ["itunes", "atom", "content"] + (["podcast"] if channel.podcast_namespace else [])
    declarations = " ".join(f'xmlns:{prefix}="{NAMESPACES[prefix]}"' for prefix in used)
    i1, i2, i3 = "  ", "    ", "      "
    out = [f'<?xml version="1.0" encoding="{channel.encoding}"?>\n',
           f'<rss version="2.0" {declarations}>\n', f"{i1}<channel>\n"]
    out.append(text_element("title", channel.title, i2))
    out.append(text_element("link", channel.link, i2))
    out.append(empty_element("atom:link", i2, href=feed_url, rel="self",
                             type="application/rss+xml"))
    out.append(text_element("language", channel.language, i2))
    out.append(text_element("copyright", channel.copyright, i2))
    out.append(text_element("description", channel.description, i2, cdata=True))
    if channel.summary:
        out.append(text_element("itunes:summary", channel.summary, i2))
    out.append(text_element("itunes:author", channel.author, i2))
    out.append(f"{i2}<itunes:owner>\n")
    out.append(text_element("itunes:name", channel.owner_name, i3))
    out.append(text_element("itunes:email", channel.owner_email, i3))
    out.append(f"{i2}</itunes:owner>\n")
    out.append(empty_element("itunes:image", i2, href=art_url))
    out.append(f"{i2}<image>\n")
    out.append(text_element("url", art_url, i3))
    out.append(text_element("title", channel.title, i3))
    out.append(text_element("link", channel.link, i3))
    out.append(f"{i2}</image>\n")
    for category, subcategory in channel.categories:
        if subcategory is None:
            out.append(empty_element("itunes:category", i2, text=category))
        else:
            out.append(f"{i2}<itunes:category text={quoteattr(category)}>\n")
            out.append(empty_element("itunes:category", i3, text=subcategory))
            out.append(f"{i2}</itunes:category>\n")
    out.append(text_element("itunes:explicit", channel.explicit, i2))
    out.append(text_element("itunes:type", "episodic", i2))
    if channel.podcast_namespace:
        out.append(text_element("podcast:guid", podcast_guid(feed_url), i2))
        out.append(text_element("podcast:locked", "no", i2, owner=channel.owner_email))
    newest = max(episode.published for episode in channel.episodes)
    out.append(text_element("lastBuildDate", rfc822(newest), i2))
    out.append(text_element("generator", "podcrawl demo generator", i2))
    for episode in channel.episodes:
        out.append(render_item(episode, i2, i3))
    out.append(f"{i1}</channel>\n</rss>\n")
    return "".join(out).encode(channel.encoding, errors="strict")


def render_item(episode: Episode, i2: str, i3: str) -> str:
    out = [f"{i2}<item>\n", text_element("title", episode.title, i3)]
    if episode.link:
        out.append(text_element("link", episode.link, i3))
    if episode.guid is not None:
        out.append(text_element("guid", episode.guid, i3,
                                isPermaLink="true" if episode.guid_is_permalink else "false"))
    out.append(text_element("pubDate", rfc822(episode.published, episode.zone_label), i3))
    out.append(text_element("description", episode.description, i3,
                            cdata=episode.description_cdata))
    if episode.content_encoded:
        out.append(text_element("content:encoded", episode.content_encoded, i3, cdata=True))
    if episode.enclosure_url:
        length = episode.duration_seconds * 16000  # 128 kbit/s
        out.append(empty_element("enclosure", i3, url=episode.enclosure_url,
                                 length=str(length), type=episode.enclosure_type))
    if episode.duration_seconds:
        out.append(text_element("itunes:duration",
                                clock(episode.duration_seconds, episode.duration_style), i3))
    if episode.explicit is not None:
        out.append(text_element("itunes:explicit", episode.explicit, i3))
    if episode.episode_type:
        out.append(text_element("itunes:episodeType", episode.episode_type, i3))
    # Podcasting 2.0 numbering only on the episodes that use that namespace anyway, so the
    # parser sees both the itunes: and the podcast: form alone.
    podcast_tags = bool(episode.transcripts or episode.chapters)
    if episode.season is not None:
        out.append(text_element("itunes:season", str(episode.season), i3))
        if podcast_tags:
            out.append(text_element("podcast:season", str(episode.season), i3))
    if episode.number is not None:
        out.append(text_element("itunes:episode", str(episode.number), i3))
        if podcast_tags:
            out.append(text_element("podcast:episode", str(episode.number), i3))
    if episode.image:
        out.append(empty_element("itunes:image", i3, href=episode.image))
    for url, kind in episode.transcripts:
        out.append(empty_element("podcast:transcript", i3, url=url, type=kind))
    if episode.chapters:
        out.append(empty_element("podcast:chapters", i3, url=episode.chapters,
                                 type="application/json+chapters"))
    out.append(f"{i2}</item>\n")
    return "".join(out)


# --- Hello World Tech: English, 83 episodes over five years ---------------------------------

HELLO_WORLD_TITLES = [
    "Hello, World! Episode 1 — why we started",
    "C++20: 3 ways to write a range-based loop",
    "Git 101: commit, push, repeat (x3)",
    "UTF-8 vs. UTF-16: 1 byte or 2?",
    "HTTP/2 in 15 minutes",
    "Python 3.10's match statement: 5 examples",
    "IPv6: 128 bits, 0 excuses",
    "Rust 1.56 & the 2021 edition",
    "SQL JOINs, explained with 4 tables",
    "TLS 1.3: the 1-RTT handshake",
    "Docker vs. Podman — 2 tools, 1 OCI spec",
    'Unicode bidi: why "abc 123" jumps around',
    "Big-O for humans: O(1), O(n), O(n²)",
    "Regex (part 1/2): anchors & groups",
    "Regex (part 2/2): look-ahead & back-references",
    "CSS Grid: 12 columns or 1fr?",
    "JSON, YAML, TOML — pick 1",
    "Linux signals: SIGTERM (15) vs. SIGKILL (9)",
    "Q&A #1: your 20 questions",
    "PostgreSQL 15: MERGE, at last",
    "Time zones: UTC+03:30 and other surprises",
    "The year-2038 problem: 2,147,483,647 seconds",
    "WebAssembly 2.0 — what's new?",
    "Floating point: 0.1 + 0.2 ≠ 0.3",
    "Kubernetes in 7 objects",
    "CMake 3.25: presets, step by step",
    "Testing 1-2-3: unit, integration, end-to-end",
    "HTTP caching: ETag, 304 & Cache-Control",
    "DNS: from a name to an address in 5 hops",
    "Checkpoint: 30 episodes in 52 minutes",
    "C++23: std::expected & 4 other gifts",
    "SSH keys: ed25519 vs. RSA-4096",
    "Memory safety: where do the bugs come from?",
    'Q&A #2: "Is Java dead?" (no)',
    "OAuth 2.0 vs. OpenID Connect 1.0",
    "Compression: gzip -9, brotli -11, zstd -19",
    "Async/await in 3 languages",
    "Vim or Emacs? Round 2",
    "RSS 2.0: 20+ years of feeds",
    "Podcasting 2.0: <podcast:transcript> & friends",
    "i18n & l10n: 18 + 10 letters",
    "CLDR plurals: one, two, few, many, other",
    "Right-to-left UIs: 5 common bugs",
    "git rebase -i: squash 10 commits into 1",
    "HTTP/3 & QUIC on UDP port 443",
    "ARM64 vs. x86-64: 2 ISAs, 1 binary?",
    "Q&A #3: the mailbag (50+ emails)",
    "Retro: 12 months in 60 minutes",
    "Bloom filters: 1% false positives, 0 false negatives",
    "Consistent hashing in 20 minutes",
    "Rate limiting: token bucket vs. leaky bucket",
    "Observability: logs, metrics & traces (3 pillars)",
    "gRPC vs. REST vs. GraphQL",
    "The C preprocessor: #define with care",
    "Fuzzing 101: 1,000,000 inputs per second",
    "Sanitizers: -fsanitize=address,undefined",
    'Q&A #4: "Which laptop?" and 9 other questions',
    "Leap seconds: 23:59:60",
    "Email: SPF, DKIM & DMARC in 3 records",
    "Zero-downtime deploys: blue/green & canary",
    "Retro: 366 days of leap-year bugs",
    "Package managers: apt, npm & cargo",
    "std::format in C++20: {} is the new %d",
    "SIMD: 4, 8 or 16 lanes?",
    "Postgres full-text search: tsvector 101",
    "ICU: Unicode's Swiss-army knife",
    "Q&A #5: 100 episodes? Not yet!",
    "Dates: ISO 8601 vs. RFC 822",
    "Accessibility: WCAG 2.2 in 10 tips",
    "The 8 fallacies of distributed computing",
    "Modules in C++20: goodbye, #include?",
    "Retro: 75 minutes of listener stories",
    "HTTP status codes: 301, 302, 304 & 410",
    "Crawling politely: robots.txt & 1 request/second",
    "SQLite vs. PostgreSQL: 2 databases, 2 jobs",
    "Content-Security-Policy: script-src 'self'",
    "XSS: why <script> in a feed is not harmless",
    "Q&A #6: Arabic, Persian & Hebrew UIs",
    "IDN: bücher.example → xn--bcher-kva.example",
    "Threads vs. processes vs. coroutines",
    "C++26: 3 features to watch",
    "Backups: the 3-2-1 rule",
    "Episode 83: 5 years, 83 episodes — thank you!",
]

# Descriptions that exercise the sanitizer, keyed by episode number.
HELLO_WORLD_SPECIAL = {
    3: ('<p>Three commands, three times. <a href="/notes/003" onclick="track(this)">Notes'
        "</a> and a cheat sheet.</p>"),
    12: ("<p>Type <bdi>مرحبا 123 world</bdi> into a right-to-left field and watch the digits"
         " move. Then read the <a href=\"https://www.unicode.org/reports/tr9/\">Unicode"
         " Bidirectional Algorithm</a>.</p>"),
    40: ('<p>Transcripts, chapters, season numbers. <img src="/img/pc20.png" alt="logo"'
         ' onerror="alert(1)"></p><p>Tag list: &lt;podcast:transcript&gt;,'
         " &lt;podcast:chapters&gt;.</p>"),
    77: ("<p>A feed is text from a stranger. This description carries a script that must"
         ' never run:</p><script>alert("hello from the feed")</script><p><a'
         ' href="javascript:alert(1)">This link</a> must lose its target, <a'
         ' href="/notes/077">this one</a> must become absolute.</p>'
         '<iframe src="https://tracker.example/frame"></iframe>'),
}

DURATION_STYLES = ["h:mm:ss", "mm:ss", "seconds", "hh:mm:ss", "m:ss"]
HELLO_WORLD_ZONES = ["+0000", "GMT", "-0500", "+0100", "+0000", "+0530"]


def hello_world_tech(base_url: str) -> Channel:
    assert len(HELLO_WORLD_TITLES) == 83, len(HELLO_WORLD_TITLES)
    assert len(set(HELLO_WORLD_TITLES)) == 83
    oldest = dt.datetime(2021, 12, 6, 9, 30, tzinfo=UTC)
    media = f"{base_url}/media/hello-world-tech"
    episodes = []
    for index, title in enumerate(HELLO_WORLD_TITLES):
        number = index + 1
        published = oldest + dt.timedelta(days=22 * index, minutes=(index * 37) % 180)
        season = published.year - 2020  # a season per calendar year
        # Short episodes for the "m:ss" style, long ones for the rest.
        style = DURATION_STYLES[index % len(DURATION_STYLES)]
        seconds = 420 + (index * 61) % 300 if style == "m:ss" else 1500 + (index * 397) % 3300
        description = HELLO_WORLD_SPECIAL.get(
            number,
            f"<p>In this episode: <em>{escape(title)}</em></p>"
            f'<p>Show notes and links: <a href="/notes/{number:03d}">notes/{number:03d}</a></p>')
        transcripts = []
        if number % 4 == 0:
            transcripts.append((f"{media}/hwt-{number:03d}.vtt", "text/vtt"))
        if number % 12 == 0:
            transcripts.append((f"{media}/hwt-{number:03d}.srt", "application/x-subrip"))
        explicit = {0: None, 1: "false", 2: "no", 3: "clean"}[index % 4]
        if number == 57:
            explicit = "true"
        episodes.append(Episode(
            guid=f"hello-world-tech-{number:03d}",
            title=title,
            published=published,
            zone_label=HELLO_WORLD_ZONES[index % len(HELLO_WORLD_ZONES)],
            description=description,
            # Every fifth description is entity-escaped HTML instead of CDATA.
            description_cdata=number % 5 != 0,
            content_encoded=(f"{description}<p>Recorded in {published.year}.</p>"
                             if number % 10 == 0 else None),
            enclosure_url=f"{media}/hwt-{number:03d}.mp3",
            duration_seconds=seconds,
            duration_style=style,
            link=f"https://hello-world-tech.example/episodes/{number}",
            explicit=explicit,
            season=season,
            number=number,
            episode_type="trailer" if number == 1 else "full",
            image=f"{base_url}/art/hello-world-tech.png" if number % 20 == 0 else None,
            transcripts=transcripts,
            chapters=f"{media}/hwt-{number:03d}.chapters.json" if number % 3 == 0 else None,
        ))
    episodes.reverse()  # newest first, as feeds usually are
    return Channel(
        file_name="hello-world-tech.xml",
        title="Hello World Tech",
        link="https://hello-world-tech.example/",
        language="en-us",
        description=("<p>Hello World Tech is a show about software, from the first line of"
                     " code to the last deploy: C++, Rust, Python, the web, databases and the"
                     " standards underneath. <a href=\"/about\">About the show</a>.</p>"),
        summary="Software, standards and the web, one topic per episode.",
        author="The Hello World Tech crew",
        owner_name="Hello World Tech",
        owner_email="hosts@hello-world-tech.example",
        categories=[("Technology", None), ("Education", "How To")],
        explicit="false",
        copyright="© 2021–2026 Hello World Tech (demo content)",
        episodes=episodes,
        podcast_namespace=True,
    )


# --- Arabic (UTF-8) ---------------------------------------------------------------------------

ARABIC_EPISODES = [
    ("لماذا السماء زرقاء؟", "<p>نشرح تشتت الضوء في الغلاف الجوي بلغة بسيطة.</p>"),
    ("الحلقة 2: ما هو الذكاء الاصطناعي؟ (AI)",
     "<p>ما الفرق بين <b>التعلم الآلي</b> و<i>الذكاء الاصطناعي</i>؟</p>"),
    ("الثقوب السوداء و«أفق الحدث»",
     '<p>رحلة إلى حافة الثقب الأسود. <a href="/notes/3" onclick="steal()">الملاحظات</a></p>'),
    ("كيف يعمل GPS في هاتفك؟",
     "<p>أقمار صناعية وساعات ذرية ونظرية النسبية في جيبك.</p>"),
    ("القهوة والدماغ: 3 حقائق مدهشة", "<p>ماذا يفعل الكافيين بالخلايا العصبية؟</p>"),
    ("رحلة إلى المريخ — 225 مليون كيلومتر",
     "<p>كم تستغرق الرحلة؟ وماذا نأكل في الطريق؟</p><script>document.cookie</script>"),
    ("لقاحات mRNA بلغة بسيطة", "<p>من المختبر إلى الذراع في خمس خطوات.</p>"),
    ("الخوارزميات في حياتنا اليومية",
     '<p>من ترتيب الأخبار إلى خرائط الطرق. <a href="https://science-cafe.example/algo">'
     "اقرأ المزيد</a></p>"),
    ("أسئلة المستمعين (الجزء ١)", "<p>نجيب عن أسئلتكم حول الفضاء والصحة والتقنية.</p>"),
    ("الحلقة العاشرة: شكرًا لكم!", "<p>عشر حلقات من العلم والقهوة. إلى الموسم القادم.</p>"),
]


def arabic_utf8(base_url: str) -> Channel:
    media = f"{base_url}/media/science-cafe"
    oldest = dt.datetime(2024, 9, 2, 16, 0, tzinfo=UTC)
    episodes = []
    for index, (title, description) in enumerate(ARABIC_EPISODES):
        number = index + 1
        published = oldest + dt.timedelta(days=75 * index, hours=index % 3)
        episodes.append(Episode(
            guid=f"science-cafe-ar-{number:02d}",
            title=title,
            published=published,
            zone_label="+0300",
            description=description,
            enclosure_url=f"{media}/episode-{number:02d}.mp3",
            duration_seconds=1200 + index * 173,
            duration_style="mm:ss",
            explicit="no",
            season=1 if number <= 5 else 2,
            number=number,
            transcripts=[(f"{media}/episode-{number:02d}.vtt", "text/vtt")] if number % 2 else [],
            chapters=f"{media}/episode-{number:02d}.chapters.json" if number == 4 else None,
        ))
    episodes.reverse()
    return Channel(
        file_name="arabic-science-cafe.xml",
        title="المقهى العلمي",
        link="https://science-cafe.example/",
        language="ar",
        description=("<p>بودكاست عربي يشرح العلوم بلغة بسيطة مع فنجان قهوة: الفضاء والصحة"
                     ' والتقنية. <a href="/about">عن البرنامج</a></p>'),
        author="فريق المقهى العلمي",
        owner_name="المقهى العلمي",
        owner_email="hello@science-cafe.example",
        categories=[("Science", None), ("Education", None)],
        explicit="no",
        copyright="© 2024–2026 المقهى العلمي (محتوى تجريبي)",
        episodes=episodes,
        podcast_namespace=True,
    )


# --- Arabic (windows-1256) ----------------------------------------------------------------------

EVENING_TALES = [
    ("حكاية الصياد والبحر", "صياد فقير وشبكة فارغة ووعد من البحر."),
    ("جحا والحمار: حكاية قديمة", "هل يرضي جحا الناس جميعًا؟ حكاية عن الرأي والناس."),
    ("ألف ليلة وليلة — الليلة الأولى", "شهرزاد تبدأ الحكاية، والملك يستمع."),
    ("السندباد والجزيرة العجيبة", "جزيرة تتحرك تحت أقدام البحارة!"),
    ("حكاية «القطة الحكيمة»", "قطة تعلم أهل القرية درسًا في الصبر."),
    ("الحلقة 6: حكايات من النيل", "ثلاث حكايات قصيرة من ضفاف النهر."),
]


def arabic_windows_1256(base_url: str) -> Channel:
    media = f"{base_url}/media/evening-tales"
    oldest = dt.datetime(2023, 3, 10, 18, 0, tzinfo=UTC)
    episodes = []
    for index, (title, summary) in enumerate(EVENING_TALES):
        number = index + 1
        episodes.append(Episode(
            guid=f"evening-tales-{number}",
            title=title,
            published=oldest + dt.timedelta(days=120 * index),
            zone_label="+0200",
            description=f"<p>{summary}</p>",
            enclosure_url=f"{media}/tale-{number}.mp3",
            duration_seconds=2400 + index * 311,
            duration_style="h:mm:ss",
            number=number,
        ))
    episodes.reverse()
    return Channel(
        file_name="arabic-windows-1256.xml",
        title="حكايات المساء",
        link="https://evening-tales.example/",
        language="ar-eg",
        description="<p>حكايات شعبية قبل النوم، تُروى بهدوء كل أسبوعين.</p>",
        author="دار الحكايات",
        owner_name="دار الحكايات",
        owner_email="tales@evening-tales.example",
        categories=[("Kids & Family", "Stories for Kids")],
        explicit="false",
        copyright="دار الحكايات (محتوى تجريبي)",
        episodes=episodes,
        encoding="windows-1256",
    )


# --- Spanish --------------------------------------------------------------------------------

SPANISH_EPISODES = [
    ("¿Por qué sube el pan?", "<p>Levadura, gluten y paciencia: la ciencia del pan.</p>",
     None),
    ("Tortillas y nixtamal: 3.000 años de maíz",
     '<p>Visitamos un molino. <a href="https://sabores.example/maiz" target="_blank"'
     ' onmouseover="track()">Fotos del molino</a></p>', None),
    ("El chocolate: de bebida amarga a tableta",
     "<p>Una historia en cuatro actos.</p>", None),
    ("¡Picante nivel 10! Chiles sin censura",
     "<p>Probamos 5 salsas. Hay palabrotas.</p>", "yes"),
    ("Aceite de oliva: ¿virgen o extra virgen?",
     '<p onclick="steal()">Cata a ciegas de seis aceites.</p>', None),
    ("Paella, arroz y discusiones familiares",
     "<p>¿Lleva chorizo? No.</p><style>p{display:none}</style>", None),
    ("Café de especialidad en 20 minutos", "<p>Del grano a la taza.</p>", None),
    ("Año nuevo: 12 uvas y otras tradiciones", "<p>Cómo se celebra en 8 países.</p>", None),
]


def spanish(base_url: str) -> Channel:
    media = f"{base_url}/media/sabores"
    oldest = dt.datetime(2025, 1, 14, 12, 0, tzinfo=UTC)
    episodes = []
    for index, (title, description, explicit) in enumerate(SPANISH_EPISODES):
        number = index + 1
        episodes.append(Episode(
            guid=f"https://sabores.example/episodios/{number}",
            guid_is_permalink=True,
            title=title,
            published=oldest + dt.timedelta(days=45 * index, minutes=15 * index),
            zone_label="-0600",
            description=description,
            enclosure_url=f"{media}/sabores-{number:02d}.mp3",
            duration_seconds=1500 + index * 227,
            duration_style="seconds",
            link=f"https://sabores.example/episodios/{number}",
            explicit=explicit,
        ))
    episodes.reverse()
    return Channel(
        file_name="spanish-sabores.xml",
        title="Sabores y Saberes",
        link="https://sabores.example/",
        language="es-MX",
        description=("<p>Historias de comida: de dónde viene lo que comemos y por qué sabe"
                     " como sabe. Cada quince días, en español.</p>"),
        author="Sabores y Saberes",
        owner_name="Equipo de Sabores",
        owner_email="hola@sabores.example",
        categories=[("Arts", "Food"), ("Society & Culture", None)],
        explicit="clean",
        copyright="© 2025 Sabores y Saberes (contenido de demostración)",
        episodes=episodes,
    )


# --- Japanese -------------------------------------------------------------------------------

JAPANESE_EPISODES = [
    ("第1回：Rustを始めよう！", "<p>インストールから「Hello, world!」まで。</p>"),
    ("第2回：「Unicode」ってなに？", "<p>文字コードの歴史を30分で。</p>"),
    ("第3回：HTTP/3とQUICの話", '<p>UDPの上に何がある？ <a href="/notes/3">メモ</a></p>'),
    ("第4回：キーボード沼へようこそ", "<p>静電容量無接点と赤軸、どっち派？</p>"),
    ("第5回：リスナーからの質問 10選", "<p>いただいた質問に答えます。</p>"),
    ("第6回：日本語の縦書きとWeb", "<p>CSSの writing-mode を試す。</p>"),
    ("第7回：2026年のおすすめツール", "<p>エディタ、ターミナル、そしてコーヒー。</p>"),
    ("第8回：ありがとう、そしてシーズン2へ", "<p>これまでの振り返り。</p>"),
]


def japanese(base_url: str) -> Channel:
    media = f"{base_url}/media/mainichi-tech"
    oldest = dt.datetime(2025, 6, 2, 11, 0, tzinfo=UTC)
    episodes = []
    for index, (title, description) in enumerate(JAPANESE_EPISODES):
        number = index + 1
        episodes.append(Episode(
            guid=f"mainichi-tech-{number}",
            title=title,
            published=oldest + dt.timedelta(days=21 * index),
            zone_label="+0900",
            description=description,
            enclosure_url=f"{media}/mt{number:02d}.m4a",
            enclosure_type="audio/x-m4a",
            duration_seconds=2700 + index * 120,
            duration_style="hh:mm:ss",
            explicit="false",
            season=1,
            number=number,
            transcripts=[(f"{media}/mt{number:02d}.html", "text/html")],
        ))
    episodes.reverse()
    return Channel(
        file_name="japanese-mainichi-tech.xml",
        title="まいにちテック雑談",
        link="https://mainichi-tech.example/",
        language="ja",
        description="<p>ソフトウェアとガジェットについて、ゆるく話すポッドキャストです。</p>",
        author="まいにちテック",
        owner_name="まいにちテック",
        owner_email="podcast@mainichi-tech.example",
        categories=[("Technology", None)],
        explicit="false",
        copyright="© 2025 まいにちテック（デモ用コンテンツ）",
        episodes=episodes,
        podcast_namespace=True,
    )


# --- Persian --------------------------------------------------------------------------------

PERSIAN_EPISODES = [
    ("قسمت ۱: چرا کتاب می‌خوانیم؟", "<p>گفت‌وگو دربارهٔ عادت کتاب‌خوانی.</p>"),
    ("قسمت ۲: شعر نو در ۱۰ دقیقه", "<p>از وزن و قافیه تا آزادی کلمه‌ها.</p>"),
    ("قسمت ۳: کتاب‌های صوتی و گوش دادن", '<p>آیا شنیدن هم خواندن است؟ <a href="/notes/3">یادداشت‌ها</a></p>'),
    ("قسمت ۴: داستان کوتاه، لذت بلند", "<p>چطور یک داستان کوتاه بنویسیم؟</p>"),
    ("قسمت ۵: گفت‌وگو با شنوندگان", "<p>پیام‌های شما را می‌خوانیم.</p>"),
    ("قسمت ۶: کتاب‌فروشی‌های کوچک", "<p>قدم‌زدن میان قفسه‌ها.</p>"),
]


def persian(base_url: str) -> Channel:
    media = f"{base_url}/media/ketabkhan"
    oldest = dt.datetime(2022, 10, 1, 15, 30, tzinfo=UTC)
    episodes = []
    for index, (title, description) in enumerate(PERSIAN_EPISODES):
        number = index + 1
        episodes.append(Episode(
            guid=f"radio-ketabkhan-{number}",
            title=title,
            published=oldest + dt.timedelta(days=140 * index),
            zone_label="+0330",
            description=description,
            enclosure_url=f"{media}/ketabkhan-{number}.mp3",
            duration_seconds=1800 + index * 95,
            duration_style="m:ss",
            explicit="no",
            season=1,
            number=number,
        ))
    episodes.reverse()
    return Channel(
        file_name="persian-ketabkhan.xml",
        title="رادیو کتاب‌خوان",
        link="https://ketabkhan.example/",
        language="fa-IR",
        description="<p>پادکستی دربارهٔ کتاب، خواندن و نوشتن؛ هر ماه یک قسمت.</p>",
        author="رادیو کتاب‌خوان",
        owner_name="رادیو کتاب‌خوان",
        owner_email="radio@ketabkhan.example",
        categories=[("Arts", "Books")],
        explicit="no",
        copyright="رادیو کتاب‌خوان (محتوای نمایشی)",
        episodes=episodes,
        podcast_namespace=True,
    )


# --- French, with the awkward cases ------------------------------------------------------------


def french_mixed(base_url: str) -> Channel:
    media = f"{base_url}/media/curieux"
    day = dt.datetime(2026, 2, 3, 7, 45, tzinfo=UTC)
    week = dt.timedelta(days=7)
    episodes = [
        Episode(guid="curieux-7", title="L’arabe en 5 mots : مرحبا, شكرا, سلام…",
                published=day + 6 * week, zone_label="+0100",
                description="<p>Cinq mots pour commencer, et pourquoi on écrit de droite à"
                            " gauche.</p>",
                enclosure_url=f"{media}/curieux-7.mp3", duration_seconds=1400,
                duration_style="mm:ss"),
        # No <guid>: the enclosure URL is the episode's identity.
        Episode(guid=None, title="Épisode sans identifiant : les fourmis",
                published=day + 5 * week, zone_label="GMT",
                description="<p>Une colonie de 10 000 fourmis, et aucune cheffe.</p>",
                enclosure_url=f"{media}/curieux-6.mp3", duration_seconds=3600,
                duration_style="seconds"),
        Episode(guid="curieux-5", title="Pourquoi la mer est-elle salée ?",
                published=day + 4 * week, zone_label="EST",
                description=('<p>Réponse courte : les rivières. <a href="javascript:void(0)">'
                             'Lien piégé</a>, <a href="notes/5.html">notes</a>.</p>'
                             '<img src="https://curieux.example/sel.jpg" onerror="x()">'),
                enclosure_url=f"{media}/curieux-5.mp3", duration_seconds=3900,
                duration_style="h:mm:ss", explicit="no"),
        # The same guid twice in one document: the second item is a duplicate.
        Episode(guid="curieux-4", title="Les volcans d’Auvergne",
                published=day + 3 * week, zone_label="+0100",
                description="<p>Une promenade sur des volcans endormis.</p>",
                enclosure_url=f"{media}/curieux-4.mp3", duration_seconds=2999,
                duration_style="mm:ss"),
        Episode(guid="curieux-4", title="Les volcans d’Auvergne (doublon)",
                published=day + 3 * week, zone_label="+0100",
                description="<p>Ce doublon ne doit pas apparaître.</p>",
                enclosure_url=f"{media}/curieux-4.mp3", duration_seconds=2999,
                duration_style="mm:ss"),
        # No enclosure: a text-only entry.
        Episode(guid="curieux-3", title="Note : pas d’épisode cette semaine",
                published=day + 2 * week, zone_label="+0100",
                description="<p>Retour mardi prochain, promis &amp; juré.</p>",
                description_cdata=False),
        Episode(guid="curieux-2", title="Les abeilles & le miel — 2ᵉ partie",
                published=day + 1 * week, zone_label="+0100",
                description="<p>Suite de l’épisode 1.</p><iframe src=\"https://x.example\">"
                            "</iframe>",
                enclosure_url=f"{media}/curieux-2.mp3", duration_seconds=2100,
                duration_style="hh:mm:ss", explicit="yes"),
        Episode(guid="curieux-1", title="Les abeilles & le miel — 1ʳᵉ partie",
                published=day, zone_label="+0100",
                description="<p>Comment une ruche fabrique 20 kg de miel.</p>",
                enclosure_url=f"{media}/curieux-1.mp3", duration_seconds=1980,
                duration_style="m:ss"),
    ]
    return Channel(
        file_name="french-curieux.xml",
        title="Le Coin des Curieux",
        link="https://curieux.example/",
        language="fr-FR",
        description=("<p>Une question, une réponse, vingt minutes. Pour les curieux de tous"
                     " âges.</p><script>alert('channel')</script>"),
        author="Le Coin des Curieux",
        owner_name="Le Coin des Curieux",
        owner_email="bonjour@curieux.example",
        categories=[("Science", "Nature"), ("Kids & Family", None)],
        explicit="no",
        copyright="© 2026 Le Coin des Curieux (contenu de démonstration)",
        episodes=episodes,
    )


SHOWS = [hello_world_tech, arabic_utf8, arabic_windows_1256, spanish, japanese, persian,
         french_mixed]

# Cover colours (background, band) per feed file stem.
ART_COLOURS = {
    "hello-world-tech": ((24, 40, 72), (255, 196, 0)),
    "arabic-science-cafe": ((92, 58, 33), (240, 220, 180)),
    "arabic-windows-1256": ((30, 30, 80), (250, 230, 120)),
    "spanish-sabores": ((170, 40, 30), (250, 200, 60)),
    "japanese-mainichi-tech": ((245, 245, 240), (200, 20, 40)),
    "persian-ketabkhan": ((20, 90, 80), (240, 240, 220)),
    "french-curieux": ((40, 110, 170), (255, 255, 255)),
}


def cover_png(background: tuple[int, int, int], band: tuple[int, int, int],
              size: int = 300) -> bytes:
    """A square PNG: a background with one diagonal band, so covers tell shows apart."""
    rows = []
    for y in range(size):
        row = bytearray([0])  # filter: none
        for x in range(size):
            row.extend(band if abs(x - y) < size // 8 else background)
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw)
            + chunk(b"IEND", b""))


def demo_opml(channels: list[Channel], base_url: str) -> bytes:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>\n', '<opml version="2.0">\n',
             "  <head>\n", "    <title>podcrawl demo feeds</title>\n",
             "    <ownerName>podcrawl</ownerName>\n", "  </head>\n", "  <body>\n"]
    for channel in channels:
        url = f"{base_url}/{channel.file_name}"
        lines.append(f"    <outline text={quoteattr(channel.title)}"
                     f" title={quoteattr(channel.title)} type=\"rss\""
                     f" xmlUrl={quoteattr(url)} htmlUrl={quoteattr(channel.link)}"
                     f" language={quoteattr(channel.language)}/>\n")
    lines += ["  </body>\n", "</opml>\n"]
    return "".join(lines).encode("utf-8")


def outputs(base_url: str) -> dict[str, bytes]:
    channels = [make(base_url) for make in SHOWS]
    files = {channel.file_name: render_feed(channel, base_url) for channel in channels}
    files["demo.opml"] = demo_opml(channels, base_url)
    for stem, (background, band) in ART_COLOURS.items():
        files[f"art/{stem}.png"] = cover_png(background, band)
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL,
                        help=f"where the folder is served (default {DEFAULT_BASE_URL})")
    parser.add_argument("--out", type=pathlib.Path, default=HERE,
                        help="folder to write into (default: this script's folder)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when a file in --out differs")
    args = parser.parse_args()
    base_url = args.base_url.rstrip("/")
    stale = []
    for name, data in outputs(base_url).items():
        path = args.out / name
        if args.check:
            if not path.is_file() or path.read_bytes() != data:
                stale.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    if stale:
        print("out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
