# skeletond: the two set-up commands are `make run` and `make test`; each installs what it needs.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
SYSCONFDIR ?= /etc
UNITDIR ?= $(PREFIX)/lib/systemd/system
SWIFT ?= swift
RELEASE = .build/release
DEBUG = .build/debug
RUNDIR = build/run

.PHONY: all deps build release run test fuzz bench install clean

all: release

# System packages: libdrm for the display backend, zlib and libpng for PNG, jsonschema for the schema test.
deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# The daemon with the bundled default layout: DRM when a display is there, otherwise the memory
# output writing snapshots to build/run/snapshot.png. Control it with
#   SKELETOND_SOCKET=build/run/control.sock .build/release/skeletonctl status
run: release
	mkdir -p $(RUNDIR)
	$(RELEASE)/skeletond run --config config/skeletond.json --socket $(RUNDIR)/control.sock \
		--layouts config/layouts --layout default --backend auto --display-wait 2 --snapshot $(RUNDIR)/snapshot.png \
		--frame-cache $(RUNDIR)/frame-cache

# Every test: Swift unit and process tests, the JSON Schema check, systemd unit verification and
# the end-to-end test on real kernel DRM drivers under QEMU.
test: deps
	@scripts/test-all.sh

# libFuzzer targets (ASan) for every parser, each to 1,000,000 executions, with a table of counts.
# One target: scripts/fuzz.sh full layout. See scripts/fuzz.sh for the other modes.
fuzz: deps
	@scripts/fuzz.sh full

bench: release
	$(RELEASE)/skeletond bench benchmarks/scene-1080p.json
	$(RELEASE)/skeletond bench-control

install: release
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR)/skeletond/layouts $(DESTDIR)/var/cache/skeletond
	install -m 755 $(RELEASE)/skeletond $(RELEASE)/skeletonctl $(DESTDIR)$(BINDIR)/
	for unit in skeletond.service skeletond.socket skeletond-hide.service skeletond-cache.path skeletond-cache.service; do \
		sed 's|@BINDIR@|$(BINDIR)|g' systemd/$$unit > $(DESTDIR)$(UNITDIR)/$$unit; \
		chmod 644 $(DESTDIR)$(UNITDIR)/$$unit; \
	done
	test -e $(DESTDIR)$(SYSCONFDIR)/skeletond/skeletond.json || \
		install -m 644 config/skeletond.json $(DESTDIR)$(SYSCONFDIR)/skeletond/skeletond.json
	install -m 644 config/layouts/*.json $(DESTDIR)$(SYSCONFDIR)/skeletond/layouts/
	install -m 644 config/skeletond-layout.schema.json $(DESTDIR)$(SYSCONFDIR)/skeletond/
	@# On the machine itself: the next boot (the first with this executable) shows the skeleton
	@# from a boot plan for the displays there are now, as every later boot does from its record.
	@if [ -z "$(DESTDIR)" ]; then \
		$(BINDIR)/skeletond cache --size auto || echo "skeletond cache: nothing prepared for the next boot (see above)"; \
	fi
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	$(RELEASE)/skeletonctl --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/skeletonctl
	$(RELEASE)/skeletonctl --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_skeletonctl
	$(RELEASE)/skeletonctl --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/skeletonctl.fish
	$(RELEASE)/skeletond --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/skeletond

clean:
	rm -rf .build .build-fuzz build
