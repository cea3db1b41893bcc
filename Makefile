# Tributary — the two commands a newcomer needs are `make run` and `make test`; both install
# what is missing first, so a fresh Debian machine with the Swift toolchain is enough.

SWIFT ?= swift
CONFIG ?= feeds.yaml
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Release binaries link the Swift runtime and Foundation statically: they start faster (no
# dynamic symbol lookup through Foundation) and run on machines without the toolchain, as a
# cron job's host often is.
RELEASE := -c release --static-swift-stdlib

# Debian packages the build needs, and the ones only the tests need.
BUILD_PACKAGES := libyaml-dev libcurl4-openssl-dev libxml2-dev libsqlite3-dev pkg-config
TEST_PACKAGES := jing chromium libxml2-utils
BENCH_PACKAGES := curl libxml2-utils

.PHONY: all run build test lint bench bench-deps deps test-deps clean

all: build

# Install whatever of $(1) is missing, with one apt-get update first.
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$missing"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
endef

deps:
	$(call apt_install,$(BUILD_PACKAGES))

test-deps: deps
	$(call apt_install,$(TEST_PACKAGES))

build: deps
	$(SWIFT) build $(RELEASE) --product tributary

# The main job on the default configuration: runs offline on the bundled samples in samples/
# and writes out/river.atom, out/river.json, out/river.rss and out/index.html.
run: build
	.build/release/tributary run --config $(CONFIG)

lint:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Sources Plugins Tests

# The whole suite: formatting, a warning-free build, every test.
test: test-deps lint
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors
	$(SWIFT) test --skip-build

bench-deps: deps
	$(call apt_install,$(BENCH_PACKAGES))

# Benchmarks against the usual alternatives on the same data in the same run (bench/bench.py
# starts and stops its own server on 127.0.0.1). Ratios matter, not absolute times.
bench: bench-deps
	$(SWIFT) build $(RELEASE) --product tributary-bench
	$(SWIFT) build $(RELEASE) --product tributary
	python3 bench/bench.py fetch
	python3 bench/bench.py parse
	python3 bench/bench.py e2e
	python3 bench/bench.py pipeline

clean:
	rm -rf .build out
