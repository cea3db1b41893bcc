#!/bin/sh
sleep 300 &
echo $! > "$1"
wait
