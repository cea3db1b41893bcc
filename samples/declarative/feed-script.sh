#!/bin/sh
# A sample `adapter: command` source: prints a JSON Feed built from notes.txt.
#
# Any program that prints JSON Feed, RSS or Atom on standard output can be a source, in any
# language (python3, node, a compiled tool…). This one is POSIX sh so that `make run` needs
# nothing more; it reads a local file (one note a line: date | url | title) so it runs offline,
# where a real script would call a site's API. Arguments: --lang CODE.
set -eu
here=$(dirname "$0")
lang=en
if [ "${1:-}" = "--lang" ] && [ -n "${2:-}" ]; then lang=$2; fi

# JSON string escaping for the few characters notes may hold.
escape() { printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g'; }

count=0
printf '{"version": "https://jsonfeed.org/version/1.1", "title": "Script notes", "language": "%s", "items": [' "$(escape "$lang")"
while IFS='|' read -r date url title; do
    case "$date" in '#'* | '') continue ;; esac
    date=$(echo "$date" | sed 's/^ *//; s/ *$//')
    url=$(echo "$url" | sed 's/^ *//; s/ *$//')
    title=$(echo "$title" | sed 's/^ *//; s/ *$//')
    [ "$count" -gt 0 ] && printf ','
    printf '\n {"id": "%s", "url": "%s", "title": "%s", "date_published": "%s"}' \
        "$(escape "$url")" "$(escape "$url")" "$(escape "$title")" "$(escape "$date")"
    count=$((count + 1))
done < "$here/notes.txt"
printf '\n]}\n'
echo "read $count notes" >&2
