#!/usr/bin/env python3
"""Generates a deterministic corpus of realistic feed documents for Tributary's benchmarks.

    python3 bench/corpus.py OUT_DIR --count 1000 [--seed 42] [--target-mb 50] [--json-feed]

Documents are RSS 2.0, Atom 1.0 and RSS 1.0 (RDF) in a fixed mix (with --json-feed, JSON Feed 1.1
too: one document in ten); item counts and sizes follow a
log-normal spread like the feeds of the real web (most 10–60 KB, a few of several MB). Text mixes
English and Chinese, HTML in CDATA and escaped, entities, enclosures, categories and authors.
The same seed always gives the same bytes. Prints the number of files and total bytes.
"""
import argparse
import json
import os
import random
from datetime import datetime, timedelta, timezone
from xml.sax.saxutils import escape

WORDS = ("feed aggregator river source adapter parser item channel entry link title summary content "
         "cron polite fetch libcurl libxml2 sqlite swift linux kernel release update security patch "
         "network server client protocol cache header response request stream buffer memory").split()
ZH = "好奇心日报今日头条看知乎的长文章和新闻资讯为何重新流行技术社区讨论开源软件发布更新安全补丁网络服务器客户端协议缓存"


def sentence(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def zh_sentence(rng, n):
    return "".join(rng.choice(ZH) for _ in range(n)) + "。"


def paragraph(rng):
    if rng.random() < 0.3:
        return "<p>" + zh_sentence(rng, rng.randint(20, 80)) + "</p>"
    parts = [sentence(rng, rng.randint(6, 18)) for _ in range(rng.randint(2, 6))]
    text = " ".join(parts)
    if rng.random() < 0.4:
        text += ' See <a href="https://example.org/%d">the notes</a> &amp; <em>more</em>.' % rng.randint(1, 10**6)
    return "<p>" + text + "</p>"


def html_body(rng, size):
    out, total = [], 0
    while total < size:
        p = paragraph(rng)
        if rng.random() < 0.1:
            p += '<img src="/img/%d.jpg" alt="figure">' % rng.randint(1, 10**5)
        out.append(p)
        total += len(p.encode())
    return "".join(out)


def rfc822(dt):
    return dt.strftime("%a, %d %b %Y %H:%M:%S +0000")


def rss(rng, index, items, item_size, start):
    head = ('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" '
            'xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" '
            'xmlns:atom="http://www.w3.org/2005/Atom">\n<channel>\n'
            '<title>Feed %d &amp; friends</title>\n<link>https://site%d.example.org/</link>\n'
            '<description>Benchmark feed %d</description>\n<language>en</language>\n'
            '<atom:link rel="self" href="https://site%d.example.org/feed.xml" type="application/rss+xml"/>\n'
            % (index, index, index, index))
    body = []
    for n in range(items):
        dt = start - timedelta(minutes=37 * n + index)
        content = html_body(rng, item_size)
        title = sentence(rng, rng.randint(4, 10)) if rng.random() < 0.7 else zh_sentence(rng, rng.randint(8, 20))
        cats = "".join("<category>%s</category>" % rng.choice(WORDS) for _ in range(rng.randint(0, 3)))
        enclosure = ('<enclosure url="https://cdn.example.org/%d/%d.mp3" length="%d" type="audio/mpeg"/>'
                     % (index, n, rng.randint(10**6, 10**8)) if rng.random() < 0.1 else "")
        desc = escape(content[: max(200, item_size // 4)]) if rng.random() < 0.5 else "<![CDATA[" + content[:300] + "]]>"
        body.append(
            "<item><title>%s</title><link>https://site%d.example.org/post/%d</link>"
            '<guid isPermaLink="false">site%d-post-%d</guid><pubDate>%s</pubDate>'
            "<dc:creator>%s</dc:creator>%s<description>%s</description>"
            "<content:encoded><![CDATA[%s]]></content:encoded>%s</item>\n"
            % (escape(title), index, n, index, n, rfc822(dt), rng.choice(["Mei Lin", "Tom Ridley", "编辑部"]),
               cats, desc, content, enclosure))
    return head + "".join(body) + "</channel>\n</rss>\n"


def atom(rng, index, items, item_size, start):
    head = ('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">\n'
            "<id>urn:bench:feed:%d</id><title>Atom feed %d</title><updated>%s</updated>\n"
            '<link rel="alternate" href="https://atom%d.example.org/"/><link rel="self" href="https://atom%d.example.org/atom.xml"/>\n'
            "<author><name>Bench</name></author>\n" % (index, index, start.isoformat(), index, index))
    body = []
    for n in range(items):
        dt = start - timedelta(minutes=41 * n + index)
        content = html_body(rng, item_size)
        body.append(
            "<entry><id>urn:bench:%d:%d</id><title type=\"html\">%s</title>"
            '<link rel="alternate" href="/entries/%d"/><updated>%s</updated><published>%s</published>'
            '<author><name>Author %d</name><uri>https://atom%d.example.org/people/%d</uri></author>'
            '<category term="%s"/><summary type="text">%s</summary><content type="html">%s</content></entry>\n'
            % (index, n, escape(sentence(rng, rng.randint(4, 10))), n, dt.isoformat(), dt.isoformat(),
               n % 7, index, n % 7, rng.choice(WORDS), escape(sentence(rng, 20)), escape(content)))
    return head + "".join(body) + "</feed>\n"


def rdf(rng, index, items, item_size, start):
    head = ('<?xml version="1.0" encoding="UTF-8"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
            'xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
            '<channel rdf:about="https://rdf%d.example.org/"><title>RDF %d</title><link>https://rdf%d.example.org/</link>'
            "<description>RSS 1.0 bench</description></channel>\n" % (index, index, index))
    body = []
    for n in range(items):
        dt = start - timedelta(minutes=53 * n + index)
        body.append(
            '<item rdf:about="https://rdf%d.example.org/%d"><title>%s</title><link>https://rdf%d.example.org/%d</link>'
            "<description>%s</description><dc:date>%s</dc:date><dc:creator>RDF Writer</dc:creator><dc:subject>%s</dc:subject></item>\n"
            % (index, n, escape(sentence(rng, 8)), index, n, escape(html_body(rng, item_size)), dt.isoformat(), rng.choice(WORDS)))
    return head + "".join(body) + "</rdf:RDF>\n"


def jsonfeed(rng, index, items, item_size, start):
    feed = {
        "version": "https://jsonfeed.org/version/1.1",
        "title": "JSON feed %d" % index,
        "home_page_url": "https://json%d.example.org/" % index,
        "feed_url": "https://json%d.example.org/feed.json" % index,
        "language": "en",
        "authors": [{"name": "Bench"}],
        "items": [],
    }
    for n in range(items):
        dt = start - timedelta(minutes=47 * n + index)
        item = {
            "id": "urn:bench:json:%d:%d" % (index, n),
            "url": "https://json%d.example.org/posts/%d" % (index, n),
            "title": sentence(rng, rng.randint(4, 10)) if rng.random() < 0.7 else zh_sentence(rng, rng.randint(8, 20)),
            "content_html": html_body(rng, item_size),
            "summary": sentence(rng, 20),
            "date_published": dt.isoformat(),
            "tags": [rng.choice(WORDS) for _ in range(rng.randint(0, 3))],
            "authors": [{"name": rng.choice(["Mei Lin", "Tom Ridley", "编辑部"])}],
        }
        if rng.random() < 0.1:
            item["attachments"] = [{"url": "https://cdn.example.org/%d/%d.mp3" % (index, n), "mime_type": "audio/mpeg",
                                    "size_in_bytes": rng.randint(10**6, 10**8)}]
        feed["items"].append(item)
    return json.dumps(feed, ensure_ascii=False, indent=1) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--target-mb", type=float, default=50.0, help="approximate total size")
    parser.add_argument("--json-feed", action="store_true", help="make one document in ten a JSON Feed")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    start = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)
    mean_doc = args.target_mb * 1024 * 1024 / args.count
    total = 0
    for index in range(args.count):
        # Log-normal document size around the mean, a few large feeds.
        size = min(max(rng.lognormvariate(0, 0.9) * mean_doc * 0.47, 3_000), 40 * mean_doc)
        items = max(1, min(200, int(rng.lognormvariate(2.8, 0.6))))
        item_size = max(300, int(size / items))
        kind = index % 10
        if args.json_feed and kind == 9:
            text, name = jsonfeed(rng, index, items, item_size, start), "feed-%04d.json" % index
        elif args.json_feed and kind == 8:
            text, name = rdf(rng, index, items, item_size, start), "feed-%04d.rdf" % index
        elif kind < 6:
            text, name = rss(rng, index, items, item_size, start), "feed-%04d.rss" % index
        elif kind < 9:
            text, name = atom(rng, index, items, item_size, start), "feed-%04d.atom" % index
        else:
            text, name = rdf(rng, index, items, item_size, start), "feed-%04d.rdf" % index
        data = text.encode("utf-8")
        with open(os.path.join(args.out, name), "wb") as handle:
            handle.write(data)
        total += len(data)
    print("%d files, %d bytes" % (args.count, total))


if __name__ == "__main__":
    main()
