# ImageSniff: build, install and maintenance targets. `make help` lists them.
#
#   make                                  # swift build -c release (.build/release/imgsniff)
#   make install PREFIX=/usr/local        # binary, man page, bash/zsh/fish completions
#   make uninstall PREFIX=/usr/local
#   make test                             # swift test
#   make readme-formats                   # regenerate the README's formats table
#   make man                              # regenerate docs/imgsniff.1
#   make docs                             # DocC documentation of the library
#
# BUILD_DIR (default .build) is SwiftPM's scratch path; DESTDIR is prepended to every install path.

PREFIX     ?= /usr/local
DESTDIR    ?=
SWIFT      ?= swift
BUILD_DIR  ?= .build
MAN_DATE   ?= 2026-11-22

BINDIR      = $(PREFIX)/bin
MANDIR      = $(PREFIX)/share/man/man1
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  = $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR = $(PREFIX)/share/fish/vendor_completions.d

SCRATCH     = --scratch-path $(BUILD_DIR)
RELEASE_BIN = $(BUILD_DIR)/release/imgsniff
DEBUG_BIN   = $(BUILD_DIR)/debug/imgsniff

.PHONY: all build install uninstall test readme-formats man docs help

all: build

## build: release build of the command (.build/release/imgsniff)
build:
	$(SWIFT) build -c release $(SCRATCH) --product imgsniff

# install uses what is built; it builds only when there is nothing yet (so that
# `sudo make install` after `make` does not build as root).
$(RELEASE_BIN):
	$(SWIFT) build -c release $(SCRATCH) --product imgsniff

## install: the binary, the man page and shell completions under $(PREFIX)
install: $(RELEASE_BIN)
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)" "$(DESTDIR)$(BASHCOMPDIR)" \
		"$(DESTDIR)$(ZSHCOMPDIR)" "$(DESTDIR)$(FISHCOMPDIR)"
	install -m 755 "$(RELEASE_BIN)" "$(DESTDIR)$(BINDIR)/imgsniff"
	install -m 644 docs/imgsniff.1 "$(DESTDIR)$(MANDIR)/imgsniff.1"
	"$(RELEASE_BIN)" --generate-completion-script bash > "$(DESTDIR)$(BASHCOMPDIR)/imgsniff"
	"$(RELEASE_BIN)" --generate-completion-script zsh > "$(DESTDIR)$(ZSHCOMPDIR)/_imgsniff"
	"$(RELEASE_BIN)" --generate-completion-script fish > "$(DESTDIR)$(FISHCOMPDIR)/imgsniff.fish"
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

## readme-formats: regenerate the table between <!-- formats:begin/end --> in README.md
readme-formats:
	$(SWIFT) build $(SCRATCH) --product imgsniff
	"$(DEBUG_BIN)" types --format markdown > README.md.formats
	awk -v table=README.md.formats \
		'/^<!-- formats:end -->$$/ { skip = 0 } \
		 !skip { print } \
		 /^<!-- formats:begin -->$$/ { while ((getline line < table) > 0) print line; skip = 1 }' \
		README.md > README.md.new
	rm -f README.md.formats
	mv README.md.new README.md

## man: regenerate docs/imgsniff.1 from the command's help (swift-argument-parser's plugin)
man:
	$(SWIFT) package $(SCRATCH) plugin generate-manual --configuration debug \
		--date $(MAN_DATE) --authors "The ImageSniff authors"
	sed 's/^$$/.Pp/' "$(BUILD_DIR)/plugins/GenerateManual/outputs/imgsniff/imgsniff.1" > docs/imgsniff.1

## docs: DocC documentation of the ImageSniff library
docs:
	$(SWIFT) package $(SCRATCH) generate-documentation --target ImageSniff

## help: this list
help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)
