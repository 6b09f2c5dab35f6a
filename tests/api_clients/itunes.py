#!/usr/bin/python3
"""Drive mopidy-podcast-itunes's iTunes Search client (Debian's mopidy-podcast-itunes) against a
podcrawl server, the two ways the Mopidy extension calls it.

Usage:
  itunes.py search BASE_URL TERM
      The extension's library search: translator.query() for an "any" and an "album" query,
      iTunesPodcastClient.search() with those parameters (GET BASE_URL/search), each result
      through translator.model().
  itunes.py charts BASE_URL CHART_URL
      The extension's charts, its one use of GET BASE_URL/lookup: iTunesPodcastClient.charts()
      reads the ids a chart lists from CHART_URL, looks them up, and each result goes through
      translator.ref(). The chart's genre comes from Apple's genre service, which a directory
      does not answer: the genre the client would read names CHART_URL as its chart.

Prints a JSON object: for each query or the chart, the albums (search) or refs (charts) the
extension makes, as {"uri", "name"} plus the artists, date and track count of an album. Exits 1
when a request fails or a result cannot be translated.
"""
import json
import sys

from mopidy_podcast_itunes import Extension, translator
from mopidy_podcast_itunes.client import iTunesPodcastClient

# The genre every podcast is under in the iTunes Store.
PODCASTS_GENRE = "26"
CHARTS = "audioPodcasts"


def client_of(base_url):
    # The extension's defaults (ext.conf), with this base URL.
    return iTunesPodcastClient({
        Extension.ext_name: {"base_url": base_url, "country": "US", "timeout": 10, "retries": 0},
        "proxy": {},
    })


def album_of(model):
    return {
        "uri": model.uri,
        "name": model.name,
        "artists": sorted(artist.name for artist in model.artists),
        "date": model.date,
        "num_tracks": model.num_tracks,
    }


def search(base_url, term):
    client = client_of(base_url)
    found = {}
    for key in ("any", "album"):
        albums = []
        for item in client.search(**translator.query({key: [term]})):
            model = translator.model(item)  # raises on a result the extension cannot read
            albums.append(album_of(model))
        found[key] = albums
    return found


def charts(base_url, chart_url):
    client = client_of(base_url)
    client.genre = lambda genre_id: {
        "id": genre_id,
        "name": "Podcasts",
        "chartUrls": {CHARTS: chart_url},
    }
    refs = []
    for item in client.charts(PODCASTS_GENRE, CHARTS):
        ref = translator.ref(item)
        refs.append({"uri": ref.uri, "name": ref.name, "type": ref.type})
    return {"charts": refs}


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("search", "charts"):
        print(__doc__, file=sys.stderr)
        return 2
    command, base_url, argument = sys.argv[1:]
    result = search(base_url, argument) if command == "search" else charts(base_url, argument)
    json.dump(result, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
