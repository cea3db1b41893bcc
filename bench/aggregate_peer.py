#!/usr/bin/env python3
"""A straightforward Python feed aggregator, the peer of Tributary's end-to-end benchmark:

    aggregate_peer.py feedparser|fastfeedparser URLFILE OUT.atom [--workers 32]

A thread pool fetches every URL with urllib and parses each response with the chosen parser
(JSON Feed with the json module when the parser has no JSON Feed support: feedparser has none);
items are merged by canonical link (scheme and host lower-cased, default port, fragment,
trailing slash and utm_* parameters dropped), sorted newest first and written as one Atom file.
Prints the number of items written.
"""
import argparse
import json
import sys
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from xml.sax.saxutils import escape, quoteattr

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def canonical(link):
    parts = urllib.parse.urlsplit(link)
    host = (parts.hostname or "").lower()
    if parts.port and not (parts.scheme == "http" and parts.port == 80 or parts.scheme == "https" and parts.port == 443):
        host += ":%d" % parts.port
    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True) if not k.startswith("utm_")]
    path = parts.path.rstrip("/") or "/"
    return urllib.parse.urlunsplit((parts.scheme.lower(), host, path, urllib.parse.urlencode(sorted(query)), ""))


def parse_date(text):
    if not text:
        return EPOCH
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    except ValueError:
        return EPOCH


def json_feed_items(body, url):
    feed = json.loads(body)
    for item in feed.get("items", []):
        link = urllib.parse.urljoin(url, item.get("url") or item.get("id") or "")
        yield {"id": str(item.get("id") or link), "title": item.get("title") or "", "link": link,
               "content": item.get("content_html") or item.get("content_text") or item.get("summary") or "",
               "date": parse_date(item.get("date_published") or item.get("date_modified"))}


def feedparser_items(body, url):
    import feedparser
    if body.lstrip()[:1] == b"{":
        yield from json_feed_items(body, url)
        return
    for entry in feedparser.parse(body).entries:
        parsed = entry.get("published_parsed") or entry.get("updated_parsed")
        date = datetime(*parsed[:6], tzinfo=timezone.utc) if parsed else EPOCH
        content = entry.get("content")
        html = content[0].get("value", "") if content else entry.get("summary", "")
        link = urllib.parse.urljoin(url, entry.get("link", ""))
        yield {"id": entry.get("id") or link, "title": entry.get("title", ""), "link": link, "content": html, "date": date}


def fastfeedparser_items(body, url):
    import fastfeedparser
    for entry in fastfeedparser.parse(body).entries:
        content = entry.get("content")
        html = content[0].get("value", "") if content else entry.get("description", "")
        link = urllib.parse.urljoin(url, entry.get("link") or "")
        yield {"id": entry.get("id") or link, "title": entry.get("title") or "", "link": link, "content": html or "",
               "date": parse_date(entry.get("published") or entry.get("updated"))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parser", choices=["feedparser", "fastfeedparser"])
    parser.add_argument("urls")
    parser.add_argument("out")
    parser.add_argument("--workers", type=int, default=32)
    args = parser.parse_args()
    items_of = feedparser_items if args.parser == "feedparser" else fastfeedparser_items
    urls = [line.strip() for line in open(args.urls) if line.strip()]

    def work(url):
        with urllib.request.urlopen(url, timeout=60) as response:
            body = response.read()
        return list(items_of(body, url))

    merged = {}
    with ThreadPoolExecutor(max_workers=args.workers) as pool:
        for items in pool.map(work, urls):
            for item in items:
                merged.setdefault(canonical(item["link"]), item)
    river = sorted(merged.values(), key=lambda item: item["date"], reverse=True)
    updated = river[0]["date"] if river else EPOCH
    with open(args.out, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
                  "<id>urn:bench:python-river</id><title>Python river</title><updated>%s</updated>"
                  "<author><name>bench</name></author>\n" % updated.isoformat())
        for item in river:
            out.write("<entry><id>%s</id><title>%s</title><link href=%s/><updated>%s</updated>"
                      '<content type="html">%s</content></entry>\n'
                      % (escape(item["id"]), escape(item["title"]), quoteattr(item["link"]), item["date"].isoformat(),
                         escape(item["content"])))
        out.write("</feed>\n")
    print(len(river))


if __name__ == "__main__":
    sys.exit(main())
