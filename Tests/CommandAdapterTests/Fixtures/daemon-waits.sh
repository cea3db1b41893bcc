#!/bin/sh
# Starts a daemon that is an orphan from the start (double fork, `setsid`; its pid goes to the
# file named by the first argument), waits for the file named by the second argument to appear
# (another command ending), then 1.5 s more, and prints feed.sh's feed if its daemon still runs;
# else says so and exits 1.
(setsid sh -c 'echo $$ > "$1"; exec sleep 1000' sh "$1" > /dev/null 2>&1 &)
while [ ! -s "$1" ]; do sleep 0.01; done
while [ ! -e "$2" ]; do sleep 0.01; done
sleep 1.5
if kill -0 "$(cat "$1")"; then
    sh feed.sh
else
    echo "its daemon was killed while it ran" >&2
    exit 1
fi
