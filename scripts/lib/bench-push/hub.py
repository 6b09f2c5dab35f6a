#!/usr/bin/env python3
"""Loopback feeds and a WebSub hub, for scripts/bench-push.

Serves --feeds RSS feeds on --port at the addresses --hosts (a comma list, feed N on host
N mod count), each declaring the hub (http://<first host>:<port>/hub) and itself (rel="self").
The hub follows the W3C WebSub Recommendation as a subscriber sees it: a subscription request
(POST /hub, a form) is answered 202, then its intent is verified with a GET to the callback that
must echo hub.challenge; a verified subscription is kept with its secret. The bench drives it:
  POST /change?feed=N   adds an episode to feed N and answers its title
  POST /publish?feed=N  delivers feed N to its subscriber, signed (X-Hub-Signature: sha256=…),
                        and answers the callback's status
  GET /subscriptions    answers how many subscriptions are verified, as a number
"""

import argparse
import asyncio
import hashlib
import hmac
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request

K_MAX_HEAD = 65536


class Farm:
    def __init__(self, hosts, port, count):
        self.hosts = hosts
        self.port = port
        self.count = count
        self.episodes = {n: 1 for n in range(count)}
        self.subscriptions = {}  # topic -> (callback, secret)
        self.hub = f"http://{hosts[0]}:{port}/hub"

    def url(self, n):
        return f"http://{self.hosts[n % len(self.hosts)]}:{self.port}/feeds/{n}.xml"

    def feed(self, n):
        items = []
        for k in range(self.episodes[n], 0, -1):
            items.append(
                f"<item><title>Bench {n} episode {k}</title><guid>bench-{n}-{k}</guid>"
                f"<pubDate>Mon, 0{1 + k % 9} Nov 2026 10:00:00 +0000</pubDate>"
                f'<enclosure url="https://media.example/{n}/{k}.mp3" type="audio/mpeg" length="1"/>'
                "</item>")
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>'
            f"<title>Bench feed {n}</title><link>https://bench.example/{n}/</link>"
            f"<language>en</language><description>Feed {n} of the push bench.</description>"
            f'<atom:link rel="hub" href="{self.hub}"/><atom:link rel="self" href="{self.url(n)}"/>'
            + "".join(items) + "</channel></rss>").encode()


def response(status, reason, body=b"", content_type="text/plain"):
    head = [f"HTTP/1.1 {status} {reason}", f"Content-Length: {len(body)}",
            f"Content-Type: {content_type}"]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def verify(farm, fields):
    """The hub's verification of intent, then the subscription kept (on a thread)."""
    topic, callback = fields.get("hub.topic", ""), fields.get("hub.callback", "")
    mode = fields.get("hub.mode", "")
    challenge = secrets.token_urlsafe(24)
    query = urllib.parse.urlencode({"hub.mode": mode, "hub.topic": topic,
                                    "hub.challenge": challenge,
                                    "hub.lease_seconds": fields.get("hub.lease_seconds", "86400")})
    separator = "&" if "?" in callback else "?"
    try:
        with urllib.request.urlopen(callback + separator + query, timeout=10) as answer:
            if answer.status // 100 != 2 or answer.read().decode() != challenge:
                return
    except Exception:
        return
    if mode == "subscribe":
        farm.subscriptions[topic] = (callback, fields.get("hub.secret", ""))
    else:
        farm.subscriptions.pop(topic, None)


def publish(farm, n):
    topic = farm.url(n)
    if topic not in farm.subscriptions:
        return 404
    callback, secret = farm.subscriptions[topic]
    body = farm.feed(n)
    request = urllib.request.Request(callback, data=body, method="POST", headers={
        "Content-Type": "application/rss+xml",
        "Link": f'<{farm.hub}>; rel="hub", <{topic}>; rel="self"',
        "X-Hub-Signature": "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code
    except Exception:
        return 0


async def serve(farm, reader, writer):
    loop = asyncio.get_running_loop()
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            if len(head) > K_MAX_HEAD:
                return
            lines = head.decode("latin-1").split("\r\n")
            method, target = lines[0].split()[:2]
            length = 0
            for line in lines[1:]:
                if line.lower().startswith("content-length:"):
                    length = int(line.split(":", 1)[1])
            body = await reader.readexactly(length) if length else b""
            path, _, query = target.partition("?")
            params = dict(urllib.parse.parse_qsl(query))
            if method == "GET" and path.startswith("/feeds/") and path.endswith(".xml"):
                n = int(path[len("/feeds/"):-len(".xml")])
                out = response(200, "OK", farm.feed(n), "application/rss+xml") \
                    if 0 <= n < farm.count else response(404, "Not Found")
            elif method == "POST" and path == "/hub":
                fields = dict(urllib.parse.parse_qsl(body.decode()))
                loop.run_in_executor(None, verify, farm, fields)
                out = response(202, "Accepted")
            elif method == "POST" and path == "/change":
                n = int(params["feed"])
                farm.episodes[n] += 1
                out = response(200, "OK", f"Bench {n} episode {farm.episodes[n]}".encode())
            elif method == "POST" and path == "/publish":
                status = await loop.run_in_executor(None, publish, farm, int(params["feed"]))
                out = response(200, "OK", str(status).encode())
            elif method == "GET" and path == "/subscriptions":
                out = response(200, "OK", str(len(farm.subscriptions)).encode())
            else:
                out = response(404, "Not Found")
            writer.write(out)
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, ValueError, KeyError):
        pass
    finally:
        writer.close()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--hosts", required=True)
    parser.add_argument("--feeds", type=int, required=True)
    options = parser.parse_args()
    farm = Farm(options.hosts.split(","), options.port, options.feeds)
    server = await asyncio.start_server(lambda r, w: serve(farm, r, w), host=farm.hosts,
                                        port=options.port, limit=K_MAX_HEAD)
    print("ready", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
