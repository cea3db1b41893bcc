#!/bin/sh
# Starts a daemon, `setsid sh -c '… sleep 1000'`, that writes its pid to the file named by the
# second argument: `holding` starts it in the background with this script's standard output and
# error, `quiet` with them on /dev/null, `double-fork` from a subshell that exits at once (so that
# it is an orphan from the start, in a session of its own, its output on /dev/null). Then prints
# feed.sh's feed and exits 0, or with `hang` as the third argument runs on (sleep 1000).
case "$1" in
holding)
    setsid sh -c 'echo $$ > "$1"; exec sleep 1000' sh "$2" &
    ;;
quiet)
    setsid sh -c 'echo $$ > "$1"; exec sleep 1000' sh "$2" > /dev/null 2>&1 &
    ;;
double-fork)
    (setsid sh -c 'echo $$ > "$1"; exec sleep 1000' sh "$2" > /dev/null 2>&1 &)
    ;;
esac
while [ ! -s "$2" ]; do sleep 0.01; done
sh feed.sh
if [ "$3" = hang ]; then exec sleep 1000; fi
exit 0
