#!/bin/sh
echo "connecting to the site" >&2
echo "error: the site answered 403" >&2
exit 3
