#!/usr/bin/env python3
"""XSS vectors through crawl -> store -> render -> serve, loaded in headless Chromium.

A feed whose every text and URL field carries an XSS vector is served on the loopback, added,
crawled and rendered by the podcrawl binary into a throwaway database and site, and the site is
served by `podcrawl serve`. Chromium (driven over the DevTools protocol on a pipe) loads every
page of the show in Arabic and English, the homes and the language chooser, with a hook on
JavaScript dialogs and on alert/confirm/prompt/print: the test fails on any call. A control page
that does call alert() proves the hook sees one.

usage: browser_xss.py --podcrawl BIN [--chromium PATH] [--keep DIR]
Needs PODCRAWL_TEST_DATABASE_URL (an account that may create databases). Exit 0 pass, 1 fail,
77 skipped (no chromium, no database).
"""
import argparse
import contextlib
import http.server
import json
import os
import pathlib
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from xml.sax.saxutils import escape

SKIPPED = 77
# Longest wait for one DevTools answer or page load; a page that needs longer fails the test.
PAGE_TIMEOUT_S = 20.0

# Markup vectors, for fields that hold HTML (descriptions), and text vectors for one-line fields
# (titles, names), which must come out as text.
MARKUP_VECTORS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "<svg onload=alert(3)><script>alert(4)</script></svg>",
    "<a href=\"javascript:alert(5)\">x</a>",
    "<a href=\"java&#x09;script:alert(6)\">x</a>",
    "<iframe srcdoc=\"<script>alert(7)</script>\"></iframe>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(8)>",
    "<input autofocus onfocus=alert(9)>",
    "<details open ontoggle=alert(10)>",
    "<noscript><p title=\"</noscript><img src=x onerror=alert(11)>\"></noscript>",
    "<object data=\"javascript:alert(12)\"></object>",
    "<base href=\"javascript:alert(13)//\">",
    "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(14)\">",
    "<p style=\"background:url(javascript:alert(15))\">x</p>",
    "<form><button formaction=\"javascript:alert(16)\" autofocus>go</button></form>",
    "<video><source onerror=alert(17)></video>",
    "<body onload=alert(18)>",
    "<a href=\"data:text/html,<script>alert(19)</script>\">x</a>",
]
TEXT_VECTORS = [
    "</title><script>alert(20)</script>",
    "\"><img src=x onerror=alert(21)>",
    "'><svg onload=alert(22)>",
    "</bdi></h1><script>alert(23)</script>",
    "{{{t.site_name}}}<script>alert(24)</script>",
    "</script><script>alert(25)</script>",
    "\u202e<img src=x onerror=alert(26)>",
]
URL_VECTORS = [
    "javascript:alert(27)",
    "JaVaScRiPt:alert(28)",
    "data:text/html,<script>alert(29)</script>",
    "https://x.example/\"><script>alert(30)</script>",
    "https://x.example/'onmouseover='alert(31)",
]


def attr(text):
    """Text escaped for a double-quoted XML attribute."""
    return escape(text, {'"': "&quot;"})


def feed_document(base_url):
    """An RSS feed with a vector in every field podcrawl reads."""
    items = []
    for n, text in enumerate(TEXT_VECTORS + MARKUP_VECTORS):
        markup = MARKUP_VECTORS[n % len(MARKUP_VECTORS)]
        url = URL_VECTORS[n % len(URL_VECTORS)]
        items.append(f"""<item>
  <title>{escape(text)} {n}</title>
  <guid isPermaLink="false">xss-{n}</guid>
  <pubDate>Mon, 02 Jun 2025 10:00:00 GMT</pubDate>
  <link>{escape(url)}</link>
  <description><![CDATA[{markup} {text}]]></description>
  <content:encoded>{escape(markup)}</content:encoded>
  <enclosure url="{attr(base_url)}/e{n}.mp3?{escape(urllib.parse.quote(text))}" type="audio/mpeg" length="1"/>
  <itunes:image href="{attr(url)}"/>
  <itunes:season>1</itunes:season><itunes:episode>{n + 1}</itunes:episode>
  <podcast:transcript url="{attr(url)}" type="text/html"/>
  <podcast:transcript url="{attr(base_url)}/t{n}.vtt?{escape(urllib.parse.quote(text))}" type="{attr(text)}"/>
  <podcast:chapters url="{attr(url)}" type="application/json+chapters"/>
  <podcast:person href="{attr(url)}" img="{attr(url)}">{escape(text)}</podcast:person>
</item>""")
    first = TEXT_VECTORS[0]
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
     xmlns:content="http://purl.org/rss/1.0/modules/content/"
     xmlns:podcast="https://podcastindex.org/namespace/1.0">
<channel>
  <title>XSS Show {escape(first)}</title>
  <link>{escape(URL_VECTORS[0])}</link>
  <language>en</language>
  <description><![CDATA[{''.join(MARKUP_VECTORS)}]]></description>
  <itunes:author>{escape(TEXT_VECTORS[1])}</itunes:author>
  <itunes:image href="{attr(URL_VECTORS[1])}"/>
  <itunes:category text="{attr(TEXT_VECTORS[2])}"/>
  <itunes:category text="Technology"/>
  <itunes:keywords>{escape(TEXT_VECTORS[3])}</itunes:keywords>
  <podcast:funding url="{attr(URL_VECTORS[0])}">{escape(TEXT_VECTORS[4])}</podcast:funding>
  {''.join(items)}
</channel>
</rss>
"""


class FeedServer:
    """Serves one document at /feed.xml on the loopback; anything else is 404."""

    def __init__(self):
        self.document = b""
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                if self.path == "/feed.xml":
                    self.send_response(200)
                    self.send_header("Content-Type", "application/rss+xml; charset=utf-8")
                    self.send_header("Content-Length", str(len(outer.document)))
                    self.end_headers()
                    self.wfile.write(outer.document)
                else:
                    self.send_error(404)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def run(arguments, **kwargs):
    result = subprocess.run(arguments, capture_output=True, text=True, timeout=120, **kwargs)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(arguments)} exited {result.returncode}: {result.stderr}")
    return result.stdout


@contextlib.contextmanager
def throwaway_database(admin_url):
    """A new database in the cluster of admin_url, dropped afterwards."""
    name = "podcrawl_xss_" + uuid.uuid4().hex[:12]
    run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", admin_url, "-c", f'CREATE DATABASE "{name}"'])
    parts = urllib.parse.urlsplit(admin_url)
    try:
        yield urllib.parse.urlunsplit(parts._replace(path="/" + name))
    finally:
        subprocess.run(["psql", "-X", "-q", admin_url, "-c", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'],
                       capture_output=True, timeout=60)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served_site(podcrawl, site_dir):
    """`podcrawl serve` on a free loopback port; yields its base URL once it listens."""
    port = free_port()
    # Its access log goes to a file: a pipe nobody reads would stall the server once full.
    log = tempfile.TemporaryFile(mode="w+")
    process = subprocess.Popen([podcrawl, "serve", "--dir", str(site_dir), "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        line = process.stdout.readline()  # "serving DIR at http://..." once it is bound
        if "serving" not in line:
            log.seek(0)
            raise RuntimeError(f"podcrawl serve did not start: {line} {log.read()}")
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=30)


# Headers `podcrawl serve` sends with every response, the 404 page included.
SERVED_HEADERS = {"Content-Security-Policy": "frame-ancestors 'none'",
                  "X-Content-Type-Options": "nosniff"}


def header_problems(url):
    """The headers of SERVED_HEADERS missing from, or different in, the response to url."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            headers = response.headers
    except urllib.error.HTTPError as error:
        headers = error.headers
    return [f"header {name} is {headers.get(name)!r}, not {value!r}"
            for name, value in SERVED_HEADERS.items() if headers.get(name) != value]


class Browser:
    """Headless Chromium spoken to over --remote-debugging-pipe (fds 3 and 4)."""

    def __init__(self, chromium, profile_dir):
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def child_fds():
            # Through fresh descriptors, in case either pipe end is itself 3 or 4. Runs before
            # the child closes every descriptor but those in pass_fds.
            reading, writing = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        flags = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-extensions", "--disable-background-networking", "--mute-audio",
                 "--disable-dev-shm-usage", "--remote-debugging-pipe",
                 # Nothing leaves the machine: every name but the loopback fails to resolve.
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                 f"--user-data-dir={profile_dir}", "about:blank"]
        self.process = subprocess.Popen([chromium] + flags, preexec_fn=child_fds,
                                        pass_fds=(3, 4),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def close(self):
        with contextlib.suppress(Exception):
            self.call("Browser.close", session=False)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        if self.process.poll() is None:
            self.process.kill()
        os.close(self.to_browser)
        os.close(self.from_browser)

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no answer from chromium")
            ready, _, _ = select.select([self.from_browser], [], [], remaining)
            if ready:
                chunk = os.read(self.from_browser, 1 << 16)
                if not chunk:
                    raise RuntimeError("chromium closed its pipe")
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + PAGE_TIMEOUT_S
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self._event(answer)

    def _event(self, message):
        if "method" not in message:
            return
        self.events.append(message)
        if message["method"] == "Page.javascriptDialogOpening":
            # Dismiss it so that the page goes on (and can show more).
            self.next_id += 1
            os.write(self.to_browser, json.dumps({
                "id": self.next_id, "sessionId": self.session,
                "method": "Page.handleJavaScriptDialog", "params": {"accept": True}}).encode() + b"\0")

    def wait_for(self, method):
        deadline = time.monotonic() + PAGE_TIMEOUT_S
        while not any(e["method"] == method for e in self.events):
            self._event(self._read_message(deadline))

    def open_tab(self):
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = self.call("Target.attachToTarget",
                             {"targetId": target["targetId"], "flatten": True}, session=False)
        self.session = attached["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.call("Runtime.addBinding", {"name": "podcrawlScriptRan"})
        # Runs before any script of the page, whatever its Content-Security-Policy says.
        self.call("Page.addScriptToEvaluateOnNewDocument", {"source": """
          for (const name of ["alert", "confirm", "prompt", "print"]) {
            const original = window[name];
            window[name] = function (...args) {
              podcrawlScriptRan(name + "(" + args.map(String).join(",") + ")");
              return original.apply(this, args);
            };
          }"""})

    def visit(self, url):
        """Load the page, let it run its handlers; returns the calls and dialogs it made."""
        self.events = []
        self.call("Page.navigate", {"url": url})
        self.wait_for("Page.loadEventFired")
        # Two animation frames after load: autofocus, error and toggle handlers have had their
        # turn in the page's own event loop.
        self.call("Runtime.evaluate", {
            "expression": "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))",
            "awaitPromise": True})
        found = []
        for event in self.events:
            if event["method"] == "Page.javascriptDialogOpening":
                found.append("dialog: " + event["params"].get("message", ""))
            elif event["method"] == "Runtime.bindingCalled":
                found.append("call: " + event["params"].get("payload", ""))
        return found


def pages_to_visit(site_dir, base_url):
    urls = [base_url + "/", base_url + "/ar/", base_url + "/en/"]
    for locale in ("ar", "en"):
        show_dirs = sorted((site_dir / locale / "podcasts").glob("xss-show*"))
        if not show_dirs:
            raise RuntimeError(f"no XSS show page under {site_dir / locale / 'podcasts'}")
        for page in sorted(show_dirs[0].rglob("index.html")):
            urls.append(base_url + "/" + str(page.parent.relative_to(site_dir)) + "/")
        for page in sorted((site_dir / locale / "categories").rglob("index.html")):
            urls.append(base_url + "/" + str(page.parent.relative_to(site_dir)) + "/")
    return urls


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--podcrawl", required=True)
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    parser.add_argument("--keep", help="render into this folder and keep it")
    args = parser.parse_args()

    admin_url = os.environ.get("PODCRAWL_TEST_DATABASE_URL", "")
    if not admin_url:
        print("skipped: PODCRAWL_TEST_DATABASE_URL is not set", file=sys.stderr)
        return SKIPPED
    if not os.access(args.chromium, os.X_OK):
        print(f"skipped: no chromium at {args.chromium} (apt-get install chromium)", file=sys.stderr)
        return SKIPPED
    if shutil.which("psql") is None:
        print("skipped: no psql", file=sys.stderr)
        return SKIPPED

    work = pathlib.Path(tempfile.mkdtemp(prefix="podcrawl-xss-"))
    feeds = FeedServer()
    browser = None
    try:
        feeds.document = feed_document(feeds.url).encode()
        site_dir = pathlib.Path(args.keep) if args.keep else work / "site"
        with throwaway_database(admin_url) as database_url:
            common = ["--database-url", database_url, "--allow-private-networks"]
            run([args.podcrawl, "add", feeds.url + "/feed.xml", "--no-discover"] + common)
            run([args.podcrawl, "crawl", "--all"] + common)
            shown = json.loads(run([args.podcrawl, "show", feeds.url + "/feed.xml"] + common))
            if len(shown.get("episodes", [])) != len(TEXT_VECTORS) + len(MARKUP_VECTORS):
                raise RuntimeError(f"stored {len(shown.get('episodes', []))} episodes")
            run([args.podcrawl, "render", "--out", str(site_dir), "--locales", "ar,en",
                 "--now", "2025-06-10T12:00:00Z", "--database-url", database_url])

        control_dir = work / "control"
        control_dir.mkdir()
        (control_dir / "index.html").write_text(
            "<!DOCTYPE html><title>control</title><script>alert('control')</script>")

        browser = Browser(args.chromium, work / "profile")
        browser.call("Target.setDiscoverTargets", {"discover": False}, session=False)
        browser.open_tab()
        with served_site(args.podcrawl, control_dir) as control_url:
            control = browser.visit(control_url + "/")
        if not any("control" in found for found in control):
            print(f"FAIL: the hook did not see the control page's alert: {control}")
            return 1

        failures = []
        with served_site(args.podcrawl, site_dir) as base_url:
            urls = pages_to_visit(site_dir, base_url)
            for url in urls + [base_url + "/no-such-page"]:
                failures.extend(f"{url}: {problem}" for problem in header_problems(url))
            for url in urls:
                for found in browser.visit(url):
                    failures.append(f"{url}: {found}")
        vectors = len(TEXT_VECTORS) + len(MARKUP_VECTORS) + len(URL_VECTORS)
        print(f"{len(urls)} pages, {vectors} vectors in every field: "
              f"{len(failures)} script executions or missing headers "
              f"(control page: {len(control)})")
        for failure in failures:
            print("FAIL:", failure)
        return 1 if failures else 0
    finally:
        if browser is not None:
            browser.close()
        feeds.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
