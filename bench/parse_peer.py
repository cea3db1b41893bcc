#!/usr/bin/env python3
"""Parses every file named in LISTFILE with one Python feed parser, as Tributary's parse benchmark
peer: `parse_peer.py feedparser|fastfeedparser|feedparser_rs LISTFILE`. Prints items found."""
import sys

which, list_file = sys.argv[1], sys.argv[2]
paths = [line.strip() for line in open(list_file) if line.strip()]
items = 0
if which == "feedparser":
    import feedparser
    for path in paths:
        with open(path, "rb") as handle:
            items += len(feedparser.parse(handle.read()).entries)
elif which == "fastfeedparser":
    import fastfeedparser
    for path in paths:
        with open(path, "rb") as handle:
            items += len(fastfeedparser.parse(handle.read()).entries)
elif which == "feedparser_rs":
    import feedparser_rs
    for path in paths:
        with open(path, "rb") as handle:
            items += len(feedparser_rs.parse(handle.read()).entries)
else:
    sys.exit("unknown parser " + which)
print(items)
