#!/bin/sh
echo "fetched 2 posts from the cache" >&2
cat <<'JSON'
{"version": "https://jsonfeed.org/version/1.1", "title": "Script feed",
 "items": [
  {"id": "a1", "url": "https://example.com/a1", "title": "First", "date_published": "2024-03-05T14:03:00Z"},
  {"id": "a2", "url": "https://example.com/a2", "title": "Second", "content_text": "plain"}
 ]}
JSON
