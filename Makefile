# ImageSniff: build, install and maintenance targets. `make help` lists them.
#
#   make                                  # swift build -c release (.build/release/imgsniff)
#   make release                          # the static, stripped binary (.build-dist/imgsniff)
#   make dist                             # dist/: tarball, .deb and SHA256SUMS of the static binary
#   make install PREFIX=/usr/local        # binary, man page, bash/zsh/fish completions
#   make uninstall PREFIX=/usr/local
#   make test                             # swift test
#   make readme-formats                   # regenerate docs/supported-formats.md's table
#   make snippets                         # regenerate the compiled copy of the docs' snippets
#   make man                              # regenerate docs/imgsniff.1
#   make docs                             # DocC documentation of the library
#
# BUILD_DIR (default .build) is SwiftPM's scratch path; DESTDIR is prepended to every install path.

PREFIX     ?= /usr/local
DESTDIR    ?=
SWIFT      ?= swift
BUILD_DIR  ?= .build
MAN_DATE   ?= November 25, 2026

BINDIR      = $(PREFIX)/bin
MANDIR      = $(PREFIX)/share/man/man1
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  = $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR = $(PREFIX)/share/fish/vendor_completions.d

SCRATCH     = --scratch-path $(BUILD_DIR)
RELEASE_BIN = $(BUILD_DIR)/release/imgsniff
DEBUG_BIN   = $(BUILD_DIR)/debug/imgsniff

# The distributed binary: fully static (the Swift runtime, libmagic and its compressors linked in;
# no shared library, no RUNPATH), stripped. libmagic reads its database, /usr/share/misc/magic.mgc
# (Debian's libmagic-mgc), only with --cross-check. Needs libmagic-dev, liblzma-dev, libbz2-dev and
# zlib1g-dev for the static archives.
DIST_SCRATCH = .build-dist
DIST_BIN     = $(DIST_SCRATCH)/imgsniff
VERSION      = $(shell sed -n 's/.*public static let version = "\(.*\)"/\1/p' Sources/ImageSniff/ImageSniffer.swift)
ARCH         = $(shell uname -m)
DEB_ARCH     = $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
DIST_NAME    = imgsniff-$(VERSION)-linux-$(ARCH)
SOURCES      = Package.swift $(shell find Sources -name '*.swift' -o -name '*.c' -o -name '*.h' -o -name '*.modulemap' 2>/dev/null)

.PHONY: all build release dist install install-files uninstall test readme-formats readme-help snippets example-upload man docs help

all: build

## build: release build of the command (.build/release/imgsniff)
build:
	$(SWIFT) build -c release $(SCRATCH) --product imgsniff

# install uses what is built, and builds when a source is newer than the binary (nothing is
# rebuilt by `sudo make install` right after `make`).
$(RELEASE_BIN): $(SOURCES)
	$(SWIFT) build -c release $(SCRATCH) --product imgsniff
	@touch "$@"

## release: the static, stripped binary for distribution (.build-dist/imgsniff)
release: $(DIST_BIN)

$(DIST_BIN): $(SOURCES)
	$(SWIFT) build -c release --static-swift-stdlib -Xswiftc -static-executable \
		-Xlinker -llzma -Xlinker -lbz2 -Xlinker -lz \
		--scratch-path $(DIST_SCRATCH) --product imgsniff
	strip -o "$@" "$(DIST_SCRATCH)/release/imgsniff"

## dist: dist/imgsniff-VERSION-linux-ARCH.tar.gz, imgsniff_VERSION_ARCH.deb and SHA256SUMS
dist: $(DIST_BIN)
	rm -rf dist/stage && mkdir -p dist/stage/$(DIST_NAME)/completions
	install -m 755 "$(DIST_BIN)" dist/stage/$(DIST_NAME)/imgsniff
	install -m 644 docs/imgsniff.1 README.md LICENSE CHANGELOG.md dist/stage/$(DIST_NAME)/
	"$(DIST_BIN)" --generate-completion-script bash > dist/stage/$(DIST_NAME)/completions/imgsniff.bash
	"$(DIST_BIN)" --generate-completion-script zsh > dist/stage/$(DIST_NAME)/completions/_imgsniff
	"$(DIST_BIN)" --generate-completion-script fish > dist/stage/$(DIST_NAME)/completions/imgsniff.fish
	tar -C dist/stage --owner=0 --group=0 --sort=name -czf dist/$(DIST_NAME).tar.gz $(DIST_NAME)
	# The Debian package: the same files in the system's places.
	$(MAKE) --no-print-directory install-files PREFIX=/usr DESTDIR=$(CURDIR)/dist/stage/deb INSTALL_BIN=$(DIST_BIN) \
		ZSHCOMPDIR=/usr/share/zsh/vendor-completions
	gzip -9n dist/stage/deb/usr/share/man/man1/imgsniff.1
	install -d dist/stage/deb/usr/share/doc/imgsniff dist/stage/deb/DEBIAN
	install -m 644 LICENSE dist/stage/deb/usr/share/doc/imgsniff/copyright
	install -m 644 README.md dist/stage/deb/usr/share/doc/imgsniff/README.md
	printf '%s\n' "Package: imgsniff" "Version: $(VERSION)" "Architecture: $(DEB_ARCH)" \
		"Maintainer: The ImageSniff authors <imgsniff@invalid>" "Section: utils" "Priority: optional" \
		"Depends: libmagic-mgc | libmagic1" \
		"Installed-Size: $$(du -sk dist/stage/deb --exclude=DEBIAN | cut -f1)" \
		"Description: tell image formats from their bytes, named as macOS names them" \
		" imgsniff reads a bounded prefix of each file and reports its type as a Uniform" \
		" Type Identifier (public.jpeg, com.nikon.raw-image, ...), finds files whose" \
		" extension lies and renames them, journalled and undoable. A static binary;" \
		" libmagic's database is read only for --cross-check." > dist/stage/deb/DEBIAN/control
	dpkg-deb --root-owner-group --build dist/stage/deb dist/imgsniff_$(VERSION)_$(DEB_ARCH).deb
	cd dist && sha256sum $(DIST_NAME).tar.gz imgsniff_$(VERSION)_$(DEB_ARCH).deb > SHA256SUMS
	rm -rf dist/stage
	@echo "dist: $$(ls dist)"

## install: the binary, the man page and shell completions under $(PREFIX) (rebuilt if stale)
install: $(RELEASE_BIN)
	$(MAKE) --no-print-directory install-files INSTALL_BIN="$(RELEASE_BIN)"

# What install copies, from INSTALL_BIN (the development build, or the static one for dist).
INSTALL_BIN ?= $(RELEASE_BIN)
install-files:
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)" "$(DESTDIR)$(BASHCOMPDIR)" \
		"$(DESTDIR)$(ZSHCOMPDIR)" "$(DESTDIR)$(FISHCOMPDIR)"
	install -m 755 "$(INSTALL_BIN)" "$(DESTDIR)$(BINDIR)/imgsniff"
	install -m 644 docs/imgsniff.1 "$(DESTDIR)$(MANDIR)/imgsniff.1"
	"$(INSTALL_BIN)" --generate-completion-script bash > "$(DESTDIR)$(BASHCOMPDIR)/imgsniff"
	"$(INSTALL_BIN)" --generate-completion-script zsh > "$(DESTDIR)$(ZSHCOMPDIR)/_imgsniff"
	"$(INSTALL_BIN)" --generate-completion-script fish > "$(DESTDIR)$(FISHCOMPDIR)/imgsniff.fish"
	chmod 644 "$(DESTDIR)$(BASHCOMPDIR)/imgsniff" "$(DESTDIR)$(ZSHCOMPDIR)/_imgsniff" \
		"$(DESTDIR)$(FISHCOMPDIR)/imgsniff.fish"

## uninstall: remove what install put under $(PREFIX)
uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/imgsniff" "$(DESTDIR)$(MANDIR)/imgsniff.1" \
		"$(DESTDIR)$(BASHCOMPDIR)/imgsniff" "$(DESTDIR)$(ZSHCOMPDIR)/_imgsniff" \
		"$(DESTDIR)$(FISHCOMPDIR)/imgsniff.fish"

## test: the test suite
test:
	$(SWIFT) test $(SCRATCH)

## readme-formats: regenerate the table between <!-- formats:begin/end --> in docs/supported-formats.md
readme-formats:
	$(SWIFT) build $(SCRATCH) --product imgsniff
	"$(DEBUG_BIN)" types --format markdown > docs/formats.table
	awk -v table=docs/formats.table \
		'/^<!-- formats:end -->$$/ { skip = 0 } \
		 !skip { print } \
		 /^<!-- formats:begin -->$$/ { while ((getline line < table) > 0) print line; skip = 1 }' \
		docs/supported-formats.md > docs/supported-formats.md.new
	rm -f docs/formats.table
	mv docs/supported-formats.md.new docs/supported-formats.md

## readme-help: regenerate docs/cli.md's reference (each command's --help) between <!-- help:begin/end -->
readme-help:
	$(SWIFT) build $(SCRATCH) --product imgsniff
	{ for cmd in "" scan rename types; do \
		printf '### `imgsniff %s--help`\n\n```text\n' "$${cmd:+$$cmd }"; \
		COLUMNS=100 "$(DEBUG_BIN)" $$cmd --help; printf '```\n\n'; done; } > docs/cli.help
	awk -v text=docs/cli.help \
		'/^<!-- help:end -->$$/ { skip = 0 } \
		 !skip { print } \
		 /^<!-- help:begin -->$$/ { while ((getline line < text) > 0) print line; skip = 1 }' \
		docs/cli.md > docs/cli.md.new
	rm -f docs/cli.help
	mv docs/cli.md.new docs/cli.md

## example-upload: build the Hummingbird upload service (Examples/HummingbirdUpload) and send it real requests with curl
example-upload:
	bash Examples/HummingbirdUpload/exercise.sh

## snippets: regenerate Tests/DocSnippetTests/Snippets.swift from the Swift snippets of the README, docs/ and the DocC articles
snippets:
	IMAGESNIFF_WRITE_SNIPPETS=1 $(SWIFT) test $(SCRATCH) --filter snippetsFileIsCurrent

## man: regenerate docs/imgsniff.1 from the command's declarations (imgsniff --generate-manual)
man:
	$(SWIFT) build $(SCRATCH) --product imgsniff
	"$(DEBUG_BIN)" --generate-manual "$(MAN_DATE)" "The ImageSniff authors" > docs/imgsniff.1

## docs: DocC documentation of the ImageSniff library (.build/docs; the toolchain's docc, no plugin), warnings as errors
docs:
	$(SWIFT) build $(SCRATCH) --target ImageSniff -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc $(BUILD_DIR)/symbolgraphs
	docc convert Sources/ImageSniff/ImageSniff.docc --additional-symbol-graph-dir $(BUILD_DIR)/symbolgraphs \
		--fallback-display-name ImageSniff --fallback-bundle-identifier org.imagesniff.ImageSniff \
		--output-path $(BUILD_DIR)/docs --warnings-as-errors

## help: this list
help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)
