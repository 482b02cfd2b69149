# mediaview: build, run, test and install.
#
#   make            release build (.build/release/mediaview); installs missing packages
#   make run        build, then play the bundled demo (headless: Xvfb + screenshots)
#   make test       build the tests and run them in a private X/PulseAudio/HTTP setup
#   make test-loaded  the same tests with both cores kept busy (stress-ng), as CI may be
#   make install    PREFIX=/usr/local DESTDIR= (program, assets, desktop file, icons, man page)
#   make uninstall  the same PREFIX and DESTDIR
#   make deps       install only the missing Debian packages
#   make bench      side-by-side benchmark against mpv and feh (installs them)
#   make test-asan  the tests under AddressSanitizer (.build/asan)
#   make test-tsan  the tests under ThreadSanitizer (.build/tsan)
#   make fuzz-media libFuzzer over demux, decode, scale and the still decoders
#   make check-structure  the shape rules (function length, stored properties, file names)
#
# The Swift 6 toolchain itself is not a Debian package; it must be on PATH.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

# Every Debian package the project needs, for building, running and testing.
# This is the only list; scripts and docs refer here.
DEBIAN_PACKAGES := \
	pkg-config \
	libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev \
	libpulse-dev libwebp-dev libjpeg62-turbo-dev libseccomp-dev libtiff-dev \
	libx11-dev libxext-dev libxtst-dev libxrandr-dev libxcursor-dev libxfixes-dev \
	libfreetype-dev libfontconfig-dev libpng-dev fonts-dejavu-core \
	xvfb xauth x11-utils x11-xserver-utils xdotool openbox i3-wm \
	ffmpeg pulseaudio pulseaudio-utils sox imagemagick \
	python3 openssl ca-certificates curl desktop-file-utils time \
	libdbus-1-dev dbus playerctl xclip socat python3-venv \
	librubberband-dev libavif-dev libheif-dev librsvg2-dev liblcms2-dev libass-dev libjxl-dev \
	libisal-dev libavif-bin libheif-examples libjxl-tools libimage-exiftool-perl stress-ng libjpeg-turbo-progs

# What `make bench` needs on top: the peers it measures against, and GNU time.
BENCH_PACKAGES := mpv feh time

# The list `make deps` installs from (make bench passes BENCH_PACKAGES).
PACKAGES ?= $(DEBIAN_PACKAGES)

SWIFT       ?= swift
SWIFT_FLAGS ?=
# The program as people run it carries the Swift runtime inside it. Bound from shared
# libraries, the runtime and Foundation cost each process about 5 ms of the dynamic
# linker before `main`, and a film's launch waits on two such starts one after the other
# (the viewer's, then the worker zygote's). The tests keep the shared runtime.
RELEASE_FLAGS ?= --static-swift-stdlib
PREFIX      ?= /usr/local
DESTDIR     ?=
BINDIR      := $(DESTDIR)$(PREFIX)/bin
DATADIR     := $(DESTDIR)$(PREFIX)/share/mediaview
APPSDIR     := $(DESTDIR)$(PREFIX)/share/applications
MANDIR      := $(DESTDIR)$(PREFIX)/share/man/man1
ICONDIR     := $(DESTDIR)$(PREFIX)/share/icons/hicolor
ICON_SIZES  := scalable 16x16 24x24 32x32 48x48 64x64 128x128 256x256
BIN         ?= .build/release/mediaview

# Arguments for `make run` (default: none, which plays assets/demo).
ARGS ?=
# Serial by default: the tests share one X screen and one null sink whose
# monitor they record, so parallel tests would see each other's output.
TEST_FLAGS ?= --no-parallel
# A hung test must not hang CI forever.
TEST_TIMEOUT ?= 3600

.PHONY: venv all build deps check-swift check-structure run test test-loaded test-asan test-tsan bench fuzz fuzz-media install install-files uninstall clean demo-assets

all: build

# Ask dpkg, not apt, so the common case (all installed) is fast, offline and
# silent; apt-get update runs only when something is really missing.
deps:
	@if ! command -v dpkg-query >/dev/null; then \
		echo "deps: not a Debian system; install the equivalents of: $(PACKAGES)" >&2; exit 0; \
	fi; \
	installed=" $$( { dpkg-query -W -f='$${Package}:$${Status}\n' $(PACKAGES) 2>/dev/null || true; } | \
		sed -n 's/:install ok installed$$//p' | tr '\n' ' ')"; \
	missing=""; \
	for p in $(PACKAGES); do \
		[[ $$installed == *" $$p "* ]] || missing="$$missing $$p"; \
	done; \
	[ -z "$$missing" ] && exit 0; \
	if [ "$$(id -u)" = 0 ]; then sudo=""; \
	elif command -v sudo >/dev/null; then sudo="sudo"; \
	else echo "deps: missing:$$missing; run as root or install sudo" >&2; exit 1; fi; \
	echo "deps: installing:$$missing"; \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq; \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing

check-swift:
	@command -v $(SWIFT) >/dev/null || { echo "no '$(SWIFT)' on PATH: install a Swift 6 toolchain (swift.org) first" >&2; exit 1; }

build: deps check-swift
	$(SWIFT) build -c release $(RELEASE_FLAGS) $(SWIFT_FLAGS)

# With a working display the demo plays there, as a person would see it.
# Without one (CI, ssh) it plays once under our own Xvfb and the screenshots
# are the proof that it showed something.
run: build
	@export MEDIAVIEW_ASSETS="$(CURDIR)/assets"; \
	if [ -n "$${DISPLAY:-}" ] && xdpyinfo >/dev/null 2>&1; then \
		exec $(BIN) $(ARGS); \
	fi; \
	echo "run: no usable X display; playing the demo under Xvfb and taking screenshots"; \
	TESTENV_SERVICES="x11 pulse" TESTENV_QUIET=1 scripts/testenv.sh \
		scripts/run-headless.sh "$(CURDIR)/$(BIN)" $(ARGS)

# The shape the code keeps (scripts/structure-report.py): no function over 60 lines, no class
# or actor over 20 stored properties, each file named for its main type, nothing outside
# MediaView reaching into its session or settings. STRUCTURE_FAIL=1 (the default) fails on a
# breach; 0 only prints the figures and the breaches.
STRUCTURE_FAIL ?= 1
# What `make test` runs it with: every module keeps the rules, so a breach fails the run
# (TEST_STRUCTURE_FAIL=0 only reports, for a work-in-progress tree).
TEST_STRUCTURE_FAIL ?= 1

check-structure:
	python3 scripts/structure-report.py $(if $(filter 1,$(STRUCTURE_FAIL)),--check)

# The example app, built as a package that depends on this one. SwiftPM's first build of it
# after a source file was added to this package can miss the new file (seen with 6.3: "cannot
# find type" for the new one); a second build usually sees it, but once it took a third, so
# a failure is retried once and then built again from clean (minutes, only then).
# The app's own file is always compiled again (seconds): it imports the library through
# ViewerUIKitCompat, and a requirement added to MediaViewDelegate did not recompile it, so its
# delegate calls landed one slot off (didPresent printed for willPresent) until a clean build.
EXAMPLE_BUILD = touch Examples/SeedClient/Sources/SeedClient/main.swift; \
	$(SWIFT) build --package-path Examples/SeedClient $(SWIFT_FLAGS) 2>/dev/null || \
	$(SWIFT) build --package-path Examples/SeedClient $(SWIFT_FLAGS) 2>/dev/null || \
	{ rm -rf Examples/SeedClient/.build && $(SWIFT) build --package-path Examples/SeedClient $(SWIFT_FLAGS); }

# The real mpv IPC clients the Remote tests drive, in a virtual environment of the
# build's own (pip's default index): python-mpv-jsonipc, used as its documentation shows.
VENV := .build/venv
IPC_CLIENTS := python-mpv-jsonipc==1.5.0

$(VENV)/.installed:
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check $(IPC_CLIENTS)
	touch $@

venv: $(VENV)/.installed

# Building outside the environment keeps the long compile from holding an
# Xvfb and a sound server, and keeps `swift test` itself a pure test run.
test: deps check-swift venv
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	@$(MAKE) --no-print-directory check-structure STRUCTURE_FAIL=$(TEST_STRUCTURE_FAIL)
	@# The example app is built as a package that depends on this one, as an app would.
	$(EXAMPLE_BUILD)
	@SWIFT="$(SWIFT)" TEST_FLAGS="$(TEST_FLAGS) $(SWIFT_FLAGS)" TEST_TIMEOUT="$(TEST_TIMEOUT)" \
		scripts/testenv.sh scripts/run-tests.sh

# The tests on a busy machine: stress-ng keeps two CPU workers running for the whole of
# `make test`, so a test that passes only when it has the machine to itself fails here.
# Only the stress-ng started here is stopped, by its PID, whatever the tests' outcome.
STRESS_CPUS ?= 2
test-loaded: deps
	@stress-ng --cpu $(STRESS_CPUS) --timeout $(TEST_TIMEOUT) --quiet & stress=$$!; \
	echo "test-loaded: stress-ng --cpu $(STRESS_CPUS) running as PID $$stress"; \
	status=0; $(MAKE) --no-print-directory test || status=$$?; \
	kill $$stress 2>/dev/null || true; wait $$stress 2>/dev/null || true; \
	exit $$status

# The same tests under a sanitizer, each in its own scratch path so the normal build stays
# as it is. The Swift toolchain brings clang's sanitizer runtimes, so no package is added.
# Reports inside the system libraries we cannot fix (FFmpeg, libpulse, Xlib) are listed,
# each with its reason, in scripts/sanitizers/. TSAN_FILTER=PlaybackTests narrows
# ThreadSanitizer to where the demux, decode and audio threads meet.
ASAN_FLAGS   := --sanitize=address --scratch-path .build/asan
TSAN_FLAGS   := --sanitize=thread --scratch-path .build/tsan
TSAN_FILTER  ?=
# Reports go to files (scripts/sanitizers/reports.sh prints them at the end): many tests
# start mediaview with its stderr discarded, and a child's report must not go unseen.
ASAN_SUPP := $(CURDIR)/scripts/sanitizers/asan.supp
ASAN_OPTIONS_ := detect_leaks=1:abort_on_error=1:log_path=$(CURDIR)/.build/asan/reports/asan:suppressions=$(ASAN_SUPP)
SANITIZER_ENV := LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/sanitizers/lsan.supp \
	TSAN_OPTIONS=halt_on_error=1:log_path=$(CURDIR)/.build/tsan/reports/tsan:suppressions=$(CURDIR)/scripts/sanitizers/tsan.supp \
	SWIFT_BACKTRACE=enable=no SWIFT="$(SWIFT)" TEST_TIMEOUT="$(TEST_TIMEOUT)"

# ASan keeps freed memory in quarantine to catch late uses, which is growth by design; the
# tests that measure memory (it stays flat; a big folder costs little per file) run in a
# second pass with the quarantine off.
ASAN_RSS_TESTS := noMemoryGrowth|LongRunTests|HostileFolders|clientsThatNeverReadCannotGrowThePlayerWithoutBound

test-asan: deps check-swift
	$(SWIFT) build --build-tests $(ASAN_FLAGS) $(SWIFT_FLAGS)
	$(EXAMPLE_BUILD)
	@rm -rf .build/asan/reports; mkdir -p .build/asan/reports; status=0; \
	$(SANITIZER_ENV) ASAN_OPTIONS="$(ASAN_OPTIONS_)" TEST_LOG=.build/asan/test-output.log \
		TEST_FLAGS="$(TEST_FLAGS) $(ASAN_FLAGS) --skip $(ASAN_RSS_TESTS) $(SWIFT_FLAGS)" \
		scripts/testenv.sh scripts/run-tests.sh || status=$$?; \
	$(SANITIZER_ENV) ASAN_OPTIONS="$(ASAN_OPTIONS_):quarantine_size_mb=0" TEST_LOG=.build/asan/test-rss-output.log \
		TEST_FLAGS="$(TEST_FLAGS) $(ASAN_FLAGS) --filter $(ASAN_RSS_TESTS) $(SWIFT_FLAGS)" \
		scripts/testenv.sh scripts/run-tests.sh || status=$$?; \
	scripts/sanitizers/reports.sh .build/asan/reports || status=1; exit $$status

test-tsan: deps check-swift
	$(SWIFT) build --build-tests $(TSAN_FLAGS) $(SWIFT_FLAGS)
	$(EXAMPLE_BUILD)
	@rm -rf .build/tsan/reports; mkdir -p .build/tsan/reports; status=0; \
	$(SANITIZER_ENV) TEST_LOG=.build/tsan/test-output.log \
		TEST_FLAGS="$(TEST_FLAGS) $(TSAN_FLAGS) $(if $(TSAN_FILTER),--filter $(TSAN_FILTER)) $(SWIFT_FLAGS)" \
		scripts/testenv.sh scripts/run-tests.sh || status=$$?; \
	scripts/sanitizers/reports.sh .build/tsan/reports || status=1; exit $$status

# Side by side with mpv and feh under a private Xvfb; writes bench-results/latest.md and
# the table in docs/performance.md. BENCH_RUNS=N for more runs (see scripts/bench.sh for the knobs).
bench: build
	@$(MAKE) --no-print-directory deps PACKAGES="$(BENCH_PACKAGES)"
	MEDIAVIEW_BIN="$(BIN)" scripts/bench.sh

# libFuzzer over the parsers (options, input.conf, commands, key names, JSON escaping,
# cache names, thumbnail layout, EXIF orientation and embedded thumbnails, IPC lines, resume files, MPRIS calls
# off the bus, drop lists, pastes, .trashinfo), bounded in time; new crashes land in
# Tests/FuzzCorpus/, which `make test` replays as a regression check. FUZZ_TARGET=f8
# (a selector in hex, see FuzzParsers.swift) keeps the whole run on one target; a crash
# it finds replays once its first byte is set to that selector.
FUZZ_SECONDS ?= 120
FUZZ_TARGET ?=
fuzz: deps check-swift
	$(SWIFT) build --product FuzzParsers --scratch-path .build/fuzz \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
		-Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
	mkdir -p .build/fuzz/corpus
	SWIFT_BACKTRACE=enable=no FUZZ_TARGET=$(FUZZ_TARGET) .build/fuzz/debug/FuzzParsers -max_total_time=$(FUZZ_SECONDS) \
		-rss_limit_mb=4096 -artifact_prefix=Tests/FuzzCorpus/crash- .build/fuzz/corpus Tests/FuzzCorpus

# The same over media bytes: FFmpeg's demuxers and decoders through our AVIO, the scaler,
# libjpeg-turbo and libwebp (MediaProbe, with a work budget per input). Seeds are the tiny
# files in Tests/FuzzMediaCorpus/; new crashes land there too, and `make test` replays them.
# Slow inputs are findings too: libFuzzer's -timeout is well above the probe's own budget.
# Only our Swift code is instrumented: Debian's FFmpeg, libjpeg and libwebp give libFuzzer no
# coverage, so inside them it mutates blind, and ASan sees only what passes its interceptors
# (malloc and its limit, free, memcpy) and what our code reads of their output.
fuzz-media: deps check-swift
	$(SWIFT) build --product FuzzMedia --scratch-path .build/fuzz \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
		-Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
	mkdir -p .build/fuzz/media-corpus
	SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 .build/fuzz/debug/FuzzMedia \
		-max_total_time=$(FUZZ_SECONDS) -timeout=20 -max_len=16384 -rss_limit_mb=4096 \
		-artifact_prefix=Tests/FuzzMediaCorpus/crash- .build/fuzz/media-corpus Tests/FuzzMediaCorpus

install: build
	@$(MAKE) --no-print-directory install-files

# The copying half of `install`, for a $(BIN) already built (the install test passes the
# debug build as BIN). The man page comes from the program's own option table.
install-files:
	install -d "$(BINDIR)" "$(DATADIR)" "$(APPSDIR)" "$(MANDIR)"
	install -m 755 "$(BIN)" "$(BINDIR)/mediaview"
	install -D -m 755 "$(dir $(BIN))mediaview-worker" "$(DESTDIR)$(PREFIX)/libexec/mediaview/mediaview-worker"
	cp -R assets/. "$(DATADIR)/"
	rm -f "$(DATADIR)/mediaview.desktop"
	install -m 644 assets/mediaview.desktop "$(APPSDIR)/mediaview.desktop"
	for size in $(ICON_SIZES); do \
		install -D -m 644 assets/icons/hicolor/$$size/apps/mediaview.* -t "$(ICONDIR)/$$size/apps"; \
	done
	"$(BIN)" --man-page >"$(MANDIR)/mediaview.1"
	chmod 644 "$(MANDIR)/mediaview.1"

uninstall:
	rm -f "$(BINDIR)/mediaview" "$(APPSDIR)/mediaview.desktop" "$(MANDIR)/mediaview.1"
	rm -rf "$(DESTDIR)$(PREFIX)/libexec/mediaview"
	for size in $(ICON_SIZES); do rm -f "$(ICONDIR)/$$size/apps"/mediaview.*; done
	rm -rf "$(DATADIR)"

# The demo files are committed; this only remakes them.
demo-assets:
	scripts/make-demo-assets.sh

clean:
	rm -rf .build screenshots bench-results
