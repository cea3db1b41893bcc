#!/bin/sh
printf '<?xml version="1.0"?><rss version="2.0"><channel><title>%s</title><item><title>One</title><link>https://example.com/1</link></item></channel></rss>\n' "$1"
