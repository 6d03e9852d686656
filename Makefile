# Build, install and test TapUinput. `make install` honours PREFIX and DESTDIR.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/tapuinput
# udev and systemd read only their own directories, not $(PREFIX).
UDEVRULESDIR ?= /etc/udev/rules.d
USERUNITDIR ?= /etc/systemd/user
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
SWIFT ?= $(shell command -v swift || echo /opt/swift/usr/bin/swift)
# Release builds link the Swift runtime and Foundation statically: the installed binary then
# needs nothing from the toolchain, starts faster and maps less (docs/benchmark.md: RSS).
SWIFTFLAGS ?= -c release --static-swift-stdlib

.PHONY: all build check test bench deb install install-udev uninstall clean completions man

all: build

build:
	$(SWIFT) build $(SWIFTFLAGS) --product tap-uinput

test:
	scripts/test

# The edit-compile-test loop: build and the Swift test suites only (`make test` is everything).
check:
	$(SWIFT) build
	$(SWIFT) test --no-parallel

# A Debian package (scripts/make-deb): .build/deb/tap-uinput_<version>_<arch>.deb.
deb:
	scripts/make-deb

# Engine throughput, then the whole bridge against the vendor's Python SDK (docs/benchmark.md;
# about 13 minutes, 10 of them idle). BENCHFLAGS: e.g. --quick, --realtime, --seconds-idle 60.
bench:
	$(SWIFT) build $(SWIFTFLAGS) --product tap-uinput-bench
	"$$($(SWIFT) build $(SWIFTFLAGS) --show-bin-path)/tap-uinput-bench" engine
	"$$($(SWIFT) build $(SWIFTFLAGS) --show-bin-path)/tap-uinput-bench" daemon $(BENCHFLAGS)

BIN = $$($(SWIFT) build $(SWIFTFLAGS) --show-bin-path)/tap-uinput

# Shell completions and the man page come from the argument parser's own help text.
completions: build
	mkdir -p .build/completions
	for sh in bash zsh fish; do "$(BIN)" --generate-completion-script $$sh > .build/completions/tap-uinput.$$sh; done

man:
	$(SWIFT) package generate-manual
	mkdir -p .build/man && cp .build/plugins/GenerateManual/outputs/tap-uinput/tap-uinput.1 .build/man/

# man first: the manual plugin rebuilds the binary without --static-swift-stdlib into the same
# path, and `build` after it relinks the static one that gets installed.
install: man build install-udev completions
	install -Dm755 "$(BIN)" "$(DESTDIR)$(BINDIR)/tap-uinput"
	install -Dm644 .build/completions/tap-uinput.bash "$(DESTDIR)$(BASHCOMPDIR)/tap-uinput"
	install -Dm644 .build/completions/tap-uinput.zsh "$(DESTDIR)$(ZSHCOMPDIR)/_tap-uinput"
	install -Dm644 .build/completions/tap-uinput.fish "$(DESTDIR)$(FISHCOMPDIR)/tap-uinput.fish"
	install -Dm644 .build/man/tap-uinput.1 "$(DESTDIR)$(MANDIR)/man1/tap-uinput.1"
	install -Dm644 config/default.toml "$(DESTDIR)$(DATADIR)/default.toml"
	install -d "$(DESTDIR)$(USERUNITDIR)"
	sed 's|@BINDIR@|$(BINDIR)|g' systemd/tap-uinput.service.in > "$(DESTDIR)$(USERUNITDIR)/tap-uinput.service"
	chmod 644 "$(DESTDIR)$(USERUNITDIR)/tap-uinput.service"

install-udev:
	install -Dm644 udev/70-tap-uinput.rules "$(DESTDIR)$(UDEVRULESDIR)/70-tap-uinput.rules"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/tap-uinput" "$(DESTDIR)$(UDEVRULESDIR)/70-tap-uinput.rules" \
	      "$(DESTDIR)$(USERUNITDIR)/tap-uinput.service" "$(DESTDIR)$(MANDIR)/man1/tap-uinput.1" \
	      "$(DESTDIR)$(BASHCOMPDIR)/tap-uinput" "$(DESTDIR)$(ZSHCOMPDIR)/_tap-uinput" \
	      "$(DESTDIR)$(FISHCOMPDIR)/tap-uinput.fish"
	rm -rf "$(DESTDIR)$(DATADIR)"

clean:
	rm -rf .build
