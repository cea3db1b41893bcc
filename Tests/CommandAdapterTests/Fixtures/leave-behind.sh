#!/bin/sh
# Prints a feed and exits 0 at once, leaving a `sleep` behind that holds its standard output open:
# in its process group (`child`) or in a session of its own, like a daemon (`daemon`). The
# sleep's pid goes to the file named by the second argument.
sh feed.sh
case "$1" in
child)
    sleep 300 &
    echo $! > "$2"
    ;;
daemon)
    setsid sh -c 'echo $$ > "$1"; exec sleep 300' sh "$2" &
    while [ ! -s "$2" ]; do sleep 0.01; done
    ;;
esac
exit 0
