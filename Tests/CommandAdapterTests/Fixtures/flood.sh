#!/bin/sh
while :; do echo y; done
