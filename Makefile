# Build, install and test TapUinput. `make install` honours PREFIX and DESTDIR.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/tapuinput
# udev and systemd read only their own directories, not $(PREFIX).
UDEVRULESDIR ?= /etc/udev/rules.d
USERUNITDIR ?= /etc/systemd/user
SWIFT ?= $(shell command -v swift || echo /opt/swift/usr/bin/swift)
SWIFTFLAGS ?= -c release

.PHONY: all build test bench install install-udev uninstall clean

all: build

build:
	$(SWIFT) build $(SWIFTFLAGS) --product tap-uinput

test:
	scripts/test

bench:
	$(SWIFT) run -c release tap-uinput-bench

install: build install-udev
	install -Dm755 "$$($(SWIFT) build $(SWIFTFLAGS) --show-bin-path)/tap-uinput" "$(DESTDIR)$(BINDIR)/tap-uinput"
	install -Dm644 config/default.toml "$(DESTDIR)$(DATADIR)/default.toml"
	install -d "$(DESTDIR)$(USERUNITDIR)"
	sed 's|@BINDIR@|$(BINDIR)|g' systemd/tap-uinput.service.in > "$(DESTDIR)$(USERUNITDIR)/tap-uinput.service"
	chmod 644 "$(DESTDIR)$(USERUNITDIR)/tap-uinput.service"

install-udev:
	install -Dm644 udev/70-tap-uinput.rules "$(DESTDIR)$(UDEVRULESDIR)/70-tap-uinput.rules"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/tap-uinput" "$(DESTDIR)$(UDEVRULESDIR)/70-tap-uinput.rules" \
	      "$(DESTDIR)$(USERUNITDIR)/tap-uinput.service"
	rm -rf "$(DESTDIR)$(DATADIR)"

clean:
	rm -rf .build
