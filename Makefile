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

.PHONY: all deps build release run test check fuzz bench bench-boot install install-files deb clean

all: release

# System packages: libdrm for the display backend, zlib and libpng for PNG, FreeType, HarfBuzz, FriBidi
# and DejaVu Sans for text, jsonschema for the schema test.
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
	@scripts/install-deps.sh --test
	@scripts/test-all.sh

# The inner loop (a few minutes): the build, the Swift unit and process tests, the layout schema,
# the module table of docs/design.md against Package.swift and the imports, and the docs' sizes.
# `make test` runs all of it and more.
check: deps
	swift build --build-tests
	swift test --skip-build
	python3 Tests/schema/validate_layouts.py --decoder .build/debug/skeletond
	python3 scripts/module-table.py --check
	python3 scripts/doc-sizes.py

# libFuzzer targets (ASan) for every parser, each to 1,000,000 executions, with a table of counts.
# One target: scripts/fuzz.sh full layout. See scripts/fuzz.sh for the other modes.
fuzz: deps
	@scripts/fuzz.sh full

bench: release
	$(RELEASE)/skeletond bench benchmarks/scene-1080p.json
	$(RELEASE)/skeletond bench config/layouts/kiosk-splash.json
	$(RELEASE)/skeletond bench benchmarks/limits-1080p.json
	$(RELEASE)/skeletond bench-control
	$(RELEASE)/skeletond-textbench

# Debian's Plymouth beside skeletond on one Debian 12 image recipe under QEMU, BIOS and UEFI, three
# boots each (needs root; installs what it needs): first splash frame, black time, the time each
# splash adds to multi-user.target, CPU per animated second, peak RSS, initramfs bytes, as ratios
# to Plymouth's. More boots: make bench-boot BENCH_BOOT="--boots 5". See docs/performance.md.
bench-boot:
	@Tests/boot/run.sh --bench $(BENCH_BOOT)

install: release
	$(MAKE) install-files

# What `install` puts in place, from already built executables (BINARIES: the static ones for a
# package); the Debian package's rules call this.
BINARIES ?= $(RELEASE)
install-files:
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR)/skeletond/layouts $(DESTDIR)/var/cache/skeletond
	install -m 755 $(BINARIES)/skeletond $(DESTDIR)$(BINDIR)/
	@# One executable: skeletond runs skeletonctl when called by that name.
	ln -sf skeletond $(DESTDIR)$(BINDIR)/skeletonctl
	@# The initramfs's build (the daemon's boot path and the scripts' requests), which the hook and
	@# the dracut module copy as /usr/bin/skeletond; without it they copy skeletond itself. Only
	@# when scripts/build-static.sh made the pair: it gives both one build id, which keys the frame
	@# cache and boot plans that skeletond prepares for the initramfs.
	if [ -x $(BINARIES)/skeletond-initramfs ] && [ "$$(readelf -n $(BINARIES)/skeletond | grep 'Build ID')" = "$$(readelf -n $(BINARIES)/skeletond-initramfs | grep 'Build ID')" ]; then \
		install -d $(DESTDIR)$(PREFIX)/libexec/skeletond; \
		install -m 755 $(BINARIES)/skeletond-initramfs $(DESTDIR)$(PREFIX)/libexec/skeletond/; \
	fi
	for unit in skeletond.service skeletond.socket skeletond-hide.service skeletond-down.service skeletond-cache.path skeletond-cache.service skeletond-initramfs.path \
		skeletond-poweroff.service skeletond-reboot.service skeletond-halt.service skeletond-kexec.service; do \
		sed 's|@BINDIR@|$(BINDIR)|g' systemd/$$unit > $(DESTDIR)$(UNITDIR)/$$unit; \
		chmod 644 $(DESTDIR)$(UNITDIR)/$$unit; \
	done
	@# The logins on the text consoles wait for the hide, as they wait for Plymouth.
	install -d $(DESTDIR)$(UNITDIR)/getty@.service.d
	install -m 644 systemd/getty@.service.d/skeletond.conf $(DESTDIR)$(UNITDIR)/getty@.service.d/skeletond.conf
	@# The way down's units are wanted by their targets statically, as plymouth's are.
	for mode in poweroff reboot halt kexec; do \
		install -d $(DESTDIR)$(UNITDIR)/$$mode.target.wants; \
		ln -sf ../skeletond-$$mode.service $(DESTDIR)$(UNITDIR)/$$mode.target.wants/skeletond-$$mode.service; \
	done
	test -e $(DESTDIR)$(SYSCONFDIR)/skeletond/skeletond.json || \
		install -m 644 config/skeletond.json $(DESTDIR)$(SYSCONFDIR)/skeletond/skeletond.json
	install -m 644 config/layouts/*.json config/layouts/*.png $(DESTDIR)$(SYSCONFDIR)/skeletond/layouts/
	install -m 644 config/skeletond-layout.schema.json $(DESTDIR)$(SYSCONFDIR)/skeletond/
	@# On the machine itself: the next boot (the first with this executable) shows the skeleton
	@# from a boot plan for the displays there are now, as every later boot does from its record.
	@if [ -z "$(DESTDIR)" ]; then \
		$(BINDIR)/skeletond cache --size auto || echo "skeletond cache: nothing prepared for the next boot (see above)"; \
	fi
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	@# bash-completion sources these files: no #! line.
	$(BINARIES)/skeletonctl --generate-completion-script bash | sed '1{/^#!/d}' > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/skeletonctl
	$(BINARIES)/skeletonctl --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_skeletonctl
	$(BINARIES)/skeletonctl --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/skeletonctl.fish
	$(BINARIES)/skeletond --generate-completion-script bash | sed '1{/^#!/d}' > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/skeletond
	@# The initramfs: initramfs-tools' hook and boot script, and a dracut module.
	install -d $(DESTDIR)$(PREFIX)/share/initramfs-tools/hooks $(DESTDIR)$(PREFIX)/share/initramfs-tools/scripts/init-top \
		$(DESTDIR)$(PREFIX)/share/initramfs-tools/scripts/init-bottom \
		$(DESTDIR)$(PREFIX)/lib/dracut/modules.d/90skeletond
	install -m 755 initramfs/initramfs-tools/hooks/skeletond $(DESTDIR)$(PREFIX)/share/initramfs-tools/hooks/skeletond
	install -m 755 initramfs/initramfs-tools/scripts/init-top/skeletond $(DESTDIR)$(PREFIX)/share/initramfs-tools/scripts/init-top/skeletond
	install -m 755 initramfs/initramfs-tools/scripts/init-bottom/skeletond $(DESTDIR)$(PREFIX)/share/initramfs-tools/scripts/init-bottom/skeletond
	install -m 755 initramfs/dracut/90skeletond/module-setup.sh initramfs/dracut/90skeletond/skeletond-start.sh \
		initramfs/dracut/90skeletond/skeletond-new-root.sh \
		$(DESTDIR)$(PREFIX)/lib/dracut/modules.d/90skeletond/

# The Debian package, build/deb/skeletond_VERSION_ARCH.deb, checked with lintian.
deb:
	@scripts/make-deb.sh

clean:
	rm -rf .build .build-fuzz build
