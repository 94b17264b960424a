# dice-tables: `make tables` writes every table into tables/, `make test` is what CI runs.
CARGO ?= cargo
BIN := target/release
OUT ?= tables
PYTHON ?= python3
# The Python package's virtual environment, inside the build directory.
VENV := target/python-venv
PIP := $(VENV)/bin/pip --disable-pip-version-check --quiet

# Cargo's commands over the whole workspace: every member but the Python
# extension (maturin builds it, linked for Python) and the WebAssembly module
# (`make wasm` builds it for wasm32).
WORKSPACE := --workspace --exclude dice-tables-python --exclude dice-tables-wasm

# Compiler flags writing source paths as if from /dice-tables and /cargo,
# so that what is built for release (the wheel, the WebAssembly module) is
# the same bytes wherever the checkout and cargo's home are.
CARGO_HOME_DIR := $(or $(CARGO_HOME),$(HOME)/.cargo)
REMAP_PATHS := --remap-path-prefix=$(abspath .)=/dice-tables --remap-path-prefix=$(CARGO_HOME_DIR)=/cargo

.PHONY: reference-players maxi-yatzy-reference yazy-duel-reference rule-duel-reference tenk-reference rule-tables rule-target-tables rule-duel-tables rule-duel-games wheel wheel-test c-lib dist dist-check c-header publish-check all build tables optional-tables maxi-swedish maxi-yatzy-parts maxi-distribution yazy-duel target-tables yazy-target yatzy-target yahtzee-target yahtzee-free yahtzee-free-target reduced-target-tables test example-game-test quick miri check bench manifest manifest-check golden fuzz clean python browser wasm npm npm-test site FORCE

comma := ,
space := $(eval) $(eval)

all: tables

# The programs. Make runs cargo every time (it alone knows what its sources
# are) and then reads the binaries' times: a table below is solved again
# only when the generator binary is newer than it, so `make test`, `make
# browser` or `make site` after `make tables` or `make target-tables` solve
# nothing again. The same crates as `make test`'s, so that the libraries
# the programs link are the ones its tests link, built once.
GENERATOR := $(BIN)/generator
READER := $(BIN)/reader
$(GENERATOR) $(READER) &: FORCE
	$(CARGO) build --release --locked --bins $(WORKSPACE)
build: $(GENERATOR)
FORCE:

# Solve every game and write its table into $(OUT), then check every
# checksum. One generator run solves the default set (solving one game
# while compressing another); Maxi Yatzy's, a minute, is a file of its own.
DEFAULT_TABLES := yazy combo threes tenk yatzy yahtzee duel duel-cardgames
# The presets the rules engine solves into tables of rule sets (game
# `rules`, each file named after its rule set; `reader lookup NAME`), and
# the target tables of the smaller ones (game `rules-target`, NAME-target.dtab;
# `reader lookup NAME --need N`): one generator run, 25 seconds on 2 cores.
RULE_TABLES := forced-yatzy yacht yacht-dice generala crag yahtzee-no-joker yahtzee-no-bonus
RULE_TARGET_TABLES := forced-yatzy-target yacht-target generala-target crag-target
# With each rule set's table, its values box by box (NAME-parts.dtab, the
# parts a lookup's reasons name), and Yatzy's, Yahtzee's and yazy's, their
# presets' read beside the built-in games' own tables (the rules and the
# reasons of their reviews): 12 seconds of the run, 21.5 MB (Yatzy's
# 9.4, Yahtzee's 4.5, yazy's 0.02).
RULE_PARTS_TABLES := $(RULE_TABLES:%=%-parts)
BUILT_IN_PARTS_TABLES := yatzy-parts yahtzee-parts yazy-parts
RULE_RUN := $(RULE_TABLES) $(RULE_TARGET_TABLES) $(RULE_PARTS_TABLES) $(BUILT_IN_PARTS_TABLES)
TABLES := $(DEFAULT_TABLES) maxi-yatzy $(RULE_RUN)
$(DEFAULT_TABLES:%=$(OUT)/%.dtab) &: $(GENERATOR)
	$(GENERATOR) --out $(OUT)
$(RULE_RUN:%=$(OUT)/%.dtab) &: $(GENERATOR)
	$(GENERATOR) --out $(OUT) --games $(subst $(space),$(comma),$(RULE_RUN))
rule-tables: $(RULE_RUN:%=$(OUT)/%.dtab) $(READER)
	$(READER) verify $(OUT)
# The larger presets' target tables (minutes each), not part of `tables`.
LARGE_RULE_TARGET_TABLES := yacht-dice-target yahtzee-no-joker-target yahtzee-no-bonus-target
rule-target-tables: $(LARGE_RULE_TARGET_TABLES:%=$(OUT)/%.dtab) $(READER)
	$(READER) verify $(OUT)
# Every other table, one generator run each: `make tables/NAME.dtab`.
$(OUT)/%.dtab: $(GENERATOR)
	$(GENERATOR) --out $(OUT) --games $*
tables: $(TABLES:%=$(OUT)/%.dtab) $(READER)
	$(READER) verify $(OUT)

# The target tables (play to win: the best chance of reaching a score),
# into the same directory. Not part of `tables`: yatzy's and yahtzee's
# (the forced joker reading) take minutes to solve.
TARGET_TABLES := yazy-target yatzy-target yahtzee-target
# Two players of the rule sets (game `rules-duel`, NAME-duel.dtab: the
# exact chance of winning against a perfect opponent; `reader lookup NAME
# --opp-mask ...` reads it): forced Yatzy's in seconds, Generala's in
# about 3.5 minutes and 398 MB, Yacht's in about 6 minutes, 4.3 GB of memory
# and 654 MB, Crag's in about 4 minutes, 13.4 GiB of memory and 3.6 GB, so
# not part of `tables`; each checked against the manifest.
RULE_DUEL_TABLES := forced-yatzy-duel generala-duel yacht-duel crag-duel
rule-duel-tables: $(RULE_DUEL_TABLES:%=$(OUT)/%.dtab) $(GENERATOR)
	$(BIN)/manifest-check tables/checksums.b3 $(OUT) $(RULE_DUEL_TABLES)
# The other rule sets' two-player figures beside their games (make bench
# runs forced Yatzy's first): each rule_duel_games run evaluates its table
# exactly, then plays 200,000 games against itself and 200,000 against the
# max-expected-score player, each share within 4 standard errors. Yacht's
# took 97 minutes and 6.9 GB here, Crag's 35 minutes and 20.7 GB. A run
# stopped goes on from its passes' saved layers (target/NAME-duel-versus/).
RULE_DUEL_GAMES := generala yacht crag
rule-duel-games: rule-duel-tables
	for g in $(RULE_DUEL_GAMES); do \
		/usr/bin/time -f "$$g games: %e s whole command, %M KB peak" \
			$(CARGO) run --release --locked -p dice-tables-generator --example rule_duel_games -- $$g 200000 $(OUT) || exit 1; \
	done
# Every table the manifest lists (tables/checksums.b3).
MANIFEST_TABLES := $(TABLES) $(TARGET_TABLES) yazy-duel $(RULE_DUEL_TABLES)
target-tables: $(TARGET_TABLES:%=$(OUT)/%.dtab) $(READER)
	$(READER) verify $(OUT)

# Two-player yazy (the exact chance of winning against a perfect opponent,
# every state of both sheets): under 2 minutes (93 s here) and 178 MB, so not part of
# `tables`. `reader lookup yazy --opp-mask ...` reads it.
yazy-duel: $(OUT)/yazy-duel.dtab

# Every table `tables` leaves out, into the same directory, checked: the
# target tables, the free joker reading's two, two-player yazy and the
# rule sets' two-player tables.
OPTIONAL_TABLES := $(TARGET_TABLES) yahtzee-free yahtzee-free-target yazy-duel maxi-yatzy-swedish maxi-yatzy-parts \
	$(LARGE_RULE_TARGET_TABLES) $(RULE_DUEL_TABLES)
optional-tables: $(OPTIONAL_TABLES:%=$(OUT)/%.dtab) $(READER)
	$(READER) verify $(OUT)

# Maxi Yatzy under the swedish rules (bonus 100 at 84, unused rerolls
# saved for later turns): 1.47 GB, 12 to 15 minutes and 8.6 GB of memory on 2
# cores, so not part of `tables`. `reader lookup maxi-yatzy --rules swedish` reads it.
maxi-swedish: $(OUT)/maxi-yatzy-swedish.dtab $(READER)
	$(READER) verify $<

# Maxi Yatzy's parts (its preset's values box by box: the rules and the
# reasons of `reader review maxi-yatzy`): 441 MB, 20 minutes and 19 GB of
# memory on 2 cores, so not part of `tables`; then its games reviewed
# against the table's own lookups.
maxi-yatzy-parts: $(OUT)/maxi-yatzy-parts.dtab $(READER)
	$(READER) verify $<
	DICE_TABLES=$(abspath $(OUT)) $(CARGO) test --release --locked -p dice-tables-tests --test integration -- \
		--include-ignored review::maxi_yatzy_games_are_reviewed_on_its_own_table

# The exact distribution of Maxi Yatzy's final score under the finnish
# rules: tables/maxi-yatzy-scores.csv and its figures (the table written
# again beside it; about 10 minutes and 6.7 GB of memory on 2 cores).
# `make bench` then checks the games it plays against it.
maxi-distribution: $(OUT)/maxi-yatzy-scores.csv
$(OUT)/maxi-yatzy-scores.csv: $(GENERATOR)
	$(GENERATOR) --out $(OUT) --games maxi-yatzy --score-distribution

# yahtzee under the free joker reading (any open box takes a joker), into
# the same directory: yahtzee-free.dtab (seconds), and its target table
# (minutes, as the forced reading's). `reader lookup yahtzee --joker free`
# reads them.
yahtzee-free: $(OUT)/yahtzee-free.dtab
yahtzee-free-target: $(OUT)/yahtzee-free-target.dtab

# yazy's target table alone: small (a second), so `make test` builds and
# tests it end to end.
yazy-target: $(OUT)/yazy-target.dtab

# yatzy's or yahtzee's target table alone (a few minutes each), for
# `reader lookup yatzy --need N` or `--opp-mask`.
yatzy-target: $(OUT)/yatzy-target.dtab
yahtzee-target: $(OUT)/yahtzee-target.dtab

# yatzy and yahtzee with their target tables reduced to the states with at
# most 4 categories open (a minute), where `make test` asks the golden
# target lookups (tests/golden/target.json) and checks the target solve
# against brute force; and two-player yazy reduced to five categories on
# both sheets (a tenth of a second) and two-player forced Yatzy whole
# (seconds), for the golden two-player lookups.
REDUCED := target/reduced-tables
REDUCED_DUEL := ones,threes,full-house,straight,yazy
REDUCED_SHEETS := yatzy yahtzee yatzy-target yahtzee-target
$(REDUCED_SHEETS:%=$(REDUCED)/%.dtab) &: $(GENERATOR)
	$(GENERATOR) --out $(REDUCED) --games $(subst $(space),$(comma),$(REDUCED_SHEETS)) --target-open 4
$(REDUCED)/yazy-duel.dtab: $(GENERATOR)
	$(GENERATOR) --out $(REDUCED) --games yazy-duel --yazy-duel-categories $(REDUCED_DUEL)
$(REDUCED)/forced-yatzy-duel.dtab: $(GENERATOR)
	$(GENERATOR) --out $(REDUCED) --games forced-yatzy-duel
reduced-target-tables: $(REDUCED_SHEETS:%=$(REDUCED)/%.dtab) $(REDUCED)/yazy-duel.dtab $(REDUCED)/forced-yatzy-duel.dtab

# The virtual environment the Python package is built and tested from.
$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# The Python package (crates/python/, built by maturin from the registries) and
# what its tests need, installed into $(VENV). Its Rust build goes to
# target/python.
# A file target: installed again only when a source it is built from changed.
PYTHON_SOURCES := $(shell find crates/python/src crates/python/dice_tables crates/lookup/src reader/src -type f) \
	crates/python/Cargo.toml crates/python/pyproject.toml crates/python/requirements-test.txt Cargo.lock
# maturin builds it in the open rather than behind pip: cargo's progress
# (crates compiled of all) shows while the extension compiles, which takes
# about 4 minutes on 2 cores the first time.
python: $(VENV)/installed
$(VENV)/installed: $(VENV)/bin/python $(PYTHON_SOURCES)
	$(PIP) install -r crates/python/requirements-test.txt -r crates/python/requirements-build.txt
	@echo "python: compiling the extension (about 4 minutes on 2 cores the first time; cargo counts the crates)"
	rm -rf target/python/wheel
	CARGO_TARGET_DIR=$(abspath target/python) $(VENV)/bin/maturin build --release --locked \
		-m crates/python/Cargo.toml --out target/python/wheel
	$(PIP) install --force-reinstall --no-deps target/python/wheel/*.whl
	touch $@

# The wheel to publish on PyPI: abi3 (one wheel for CPython 3.9 and
# later), built by maturin (pinned in crates/python/requirements-build.txt)
# into $(WHEELS), its zip timestamps fixed (SOURCE_DATE_EPOCH: the last
# commit's time) and its source paths written as if from /dice-tables and
# /cargo, so that two builds, wherever the checkout, are the same bytes. wheel-test installs
# it, with numpy and pytest as wheels only (--only-binary: nothing is
# compiled), into a fresh virtual environment whose PATH holds nothing but
# that environment (no cargo, no rustc), and runs the package's tests there
# (all but the one that builds the package from its source).
WHEELS := target/wheels
WHEEL_VENV := target/wheel-venv
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
PACKAGE_VERSION := $(shell sed -n 's/^version = "\(.*\)"$$/\1/p' crates/python/pyproject.toml)
WHEEL = $(WHEELS)/dice_tables-$(PACKAGE_VERSION)-cp39-abi3-*.whl
wheel: $(VENV)/bin/python
	$(PIP) install -r crates/python/requirements-build.txt
	rm -rf $(WHEELS)
	SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) CARGO_TARGET_DIR=$(abspath target/wheel-build) \
		RUSTFLAGS="$(REMAP_PATHS)" \
		$(VENV)/bin/maturin build --quiet --release --locked --strip \
		-m crates/python/Cargo.toml --out $(WHEELS)
	@ls $(WHEEL) > /dev/null || { echo "make wheel: no abi3 wheel for Python 3.9+ in $(WHEELS)"; exit 1; }
	@echo "wheel: $$(ls $(WHEEL))"
wheel-test: wheel tables yazy-target reduced-target-tables
	rm -rf $(WHEEL_VENV) && $(PYTHON) -m venv $(WHEEL_VENV)
	cd / && env PATH=$(abspath $(WHEEL_VENV))/bin CARGO=/nonexistent RUSTC=/nonexistent /bin/sh -c '\
		if command -v cargo || command -v rustc; then echo "wheel-test: a Rust toolchain is on PATH"; exit 1; fi; \
		pip install --quiet --disable-pip-version-check --only-binary=:all: $(abspath $(WHEEL)) \
			-r $(abspath crates/python/requirements-test.txt) && \
		python -c "import dice_tables, sys; assert dice_tables.__file__.startswith(sys.prefix), dice_tables.__file__" && \
		DICE_TABLES=$(abspath $(OUT)) DICE_TARGET_TABLES=$(abspath $(REDUCED)) \
			pytest -q -p no:cacheprovider -m "not builds_from_source" $(abspath crates/python/tests)'
	@echo "wheel-test: $$(ls $(WHEEL) | xargs basename) installed and tested without a Rust toolchain"

# Unit, end-to-end and doc tests, the slow ones too (`#[ignore = "slow:
# ..."]`, which `cargo test` and `make quick` leave out). The end-to-end
# tests compare the tables make built in $(OUT) with tables/checksums.b3,
# solve the small ones again with one thread and compare, and look tables
# up in $(OUT); the doc tests too. Then the Python package's tests (golden
# files, errors, values, the example). The C library is built first: a C
# program compiled with cc asks it the golden lookups
# (tests/tests/integration/c_api.rs). And one-die through every front end
# (example-game-test, above). The examples are not linked here (`make
# check` lints them, `make bench` runs them).
TEST_ENV := DICE_TABLES=$(abspath $(OUT)) DICE_TARGET_TABLES=$(abspath $(REDUCED))
test: tables yazy-target yazy-duel reduced-target-tables python c-lib example-game-test
	$(TEST_ENV) $(CARGO) test --release --locked $(WORKSPACE) --exclude dice-tables-tests --lib --bins --tests
	$(TEST_ENV) $(CARGO) test --release --locked $(WORKSPACE) --exclude dice-tables-tests --doc
	@# Every test, the slow ones too, but the two that need tables `make
	@# tables` leaves out: the whole target tables (yatzy-target,
	@# yahtzee-target; `make browser` runs it after `make target-tables`)
	@# and Maxi Yatzy's parts (`make maxi-yatzy-parts` runs it).
	$(TEST_ENV) $(CARGO) test --release --locked -p dice-tables-tests -- --include-ignored \
		--skip review::built_in_games_played_for_a_target_add_up_to_reaching_it \
		--skip review::maxi_yatzy_games_are_reviewed_on_its_own_table
	$(TEST_ENV) $(VENV)/bin/pytest -q crates/python/tests

# A game added through its registry lines alone, asked through every
# front end: one-die (the feature example-game: reader/src/games/one_die/,
# generator/src/games/one_die/, crates/lookup/src/games/one_die.rs and
# their lines in GAMES, SOLVERS, LOOKUPS and Query). The programs are built
# with it into target/release and tested there (tests/tests/example_game.rs:
# solved by `generator --games one-die`, asked through the lookup layer,
# `reader lookup`, `reader serve` and the Python package, built with it by
# maturin and unpacked into $(EXAMPLE)), then built again without it.
EXAMPLE := target/example-game
EXAMPLE_FEATURES := dice-tables-cli/example-game,dice-tables-generator/example-game
example-game-test: $(VENV)/installed
	$(PIP) install -r crates/python/requirements-build.txt
	rm -rf $(EXAMPLE) && mkdir -p $(EXAMPLE)
	CARGO_TARGET_DIR=$(abspath target/python) $(VENV)/bin/maturin build --quiet --release --locked \
		-m crates/python/Cargo.toml --features example-game --out $(EXAMPLE)/wheel
	$(VENV)/bin/python -m zipfile -e $(EXAMPLE)/wheel/*.whl $(EXAMPLE)/python
	$(CARGO) build --release --locked --bins -p dice-tables-cli -p dice-tables-generator --features $(EXAMPLE_FEATURES)
	PYTHON=$(abspath $(VENV))/bin/python EXAMPLE_GAME_PYTHONPATH=$(abspath $(EXAMPLE))/python \
		$(CARGO) test --release --locked -p dice-tables-tests --features example-game --test example_game; \
		status=$$?; $(CARGO) build --release --locked --bins $(WORKSPACE) && exit $$status

# The everyday loop, a few minutes from a warm build: the programs, the
# lint (clippy, warnings as errors), then every unit and end-to-end test but
# the slow ones, on the small tables (no doc tests, no Python). `make test`
# runs everything.
quick: tables yazy-target reduced-target-tables c-lib
	$(CARGO) clippy --locked $(WORKSPACE) --all-targets -- -D warnings
	$(TEST_ENV) $(CARGO) test --release --locked $(WORKSPACE) --lib --bins --tests

# The reader's unsafe code under Miri: the arena's tests and the file
# format's (preambles and headers written by hand). Needs a nightly
# toolchain with the miri and rust-src components (`rustup toolchain
# install nightly --component miri,rust-src`); not part of .ci/run, whose
# machine has the stable toolchain only.
miri:
	$(CARGO) +nightly miri test --locked -p dice-tables-reader --lib -- arena:: format::

# The big target tables make built, each compared with its line of the
# manifest (`make test` compares every other table it lists): after `make
# target-tables`, the browser tests' tables are checked without solving
# them again.
BIG_TARGET_TABLES := yatzy-target yahtzee-target
manifest-check: $(BIG_TARGET_TABLES:%=$(OUT)/%.dtab) $(GENERATOR)
	$(BIN)/manifest-check tables/checksums.b3 $(OUT) $(BIG_TARGET_TABLES)

# The C library: target/release/libdice_tables.a and .so (the header is
# committed: crates/c/include/dice_tables.h).
c-lib:
	$(CARGO) build --release --locked -p dice-tables-c

# The C library's header (crates/c/include/dice_tables.h) written again
# from its source by cbindgen; the crate's test fails while it is stale.
c-header:
	$(CARGO) run --release --locked -q -p dice-tables-c --bin dice-tables-header > crates/c/include/dice_tables.h

# The lint gate: rustfmt (the workspace, and the fuzz crate outside it),
# clippy on every target with warnings as errors, rustdoc of the library crates
# with warnings as errors, and the reader library's dependencies: none of a
# front end's crates.
LIBRARY_CRATES := -p dice-tables-reader -p dice-tables-lookup -p dice-tables-serve -p dice-tables-generator
FRONT_END_CRATES := clap|hyper|hyper-util|tokio|tracing|tracing-subscriber|serde_json|percent-encoding
check:
	$(CARGO) fmt --all --check
	cd fuzz && $(CARGO) fmt --check
	$(CARGO) clippy --locked $(WORKSPACE) --all-targets -- -D warnings
	@# The Python extension and the WebAssembly module, linted as built for this machine.
	$(CARGO) clippy --locked -p dice-tables-python -p dice-tables-wasm --all-targets -- -D warnings
	@# The static site's first WebAssembly module's code (make site), built for this machine.
	$(CARGO) clippy --locked -p dice-tables-wasm --features solitaire-only -- -D warnings
	@# one-die, the game built only by example-game-test, and its test.
	$(CARGO) clippy --locked -p dice-tables-reader -p dice-tables-generator -p dice-tables-lookup -p dice-tables-tests \
		--features dice-tables-tests/example-game,dice-tables-lookup/text --lib --test example_game -- -D warnings
	RUSTDOCFLAGS=-Dwarnings $(CARGO) doc --locked --no-deps $(LIBRARY_CRATES)
	@if $(CARGO) tree --locked -p dice-tables-reader -e normal --prefix none | grep -Eq '^($(FRONT_END_CRATES)) '; then \
		echo "the reader library depends on a front end's crate ($(FRONT_END_CRATES))"; exit 1; \
	else echo "check: rustfmt, clippy and rustdoc clean; the reader library has no front end's crates"; fi

# The page in a real browser: Debian's chromium (/usr/bin/chromium;
# .ci/run installs it) driven headless by playwright-core (installed here
# from tests/browser/package-lock.json), on a phone-sized screen. First as
# `reader serve` serves it (answers from the HTTP API): whole games of yazy,
# Yahtzee and Maxi Yatzy (the swedish rules too where the directory holds
# their table, else refused), whole games against the computer (yazy from
# the two-player table, Yatzy and Yahtzee from the opponent-aware advisor's
# target tables, which it builds first: minutes) and two people at one
# table, a two-player 10000 game, the threes and 10000 advisors, and the
# rule sets' tab (alone, for a goal, two players passing the dice and
# against the computer: Generala's chances the advisor's, forced Yatzy's
# exact from its two-player table, solved first in seconds and served
# from a directory of its own beside forced Yatzy's tables). Then the static site (`make site`, answers from the WebAssembly
# reader, served by a plain static file server): whole games of Yahtzee
# (both joker readings), Yatzy, yazy and Maxi Yatzy, their reviews,
# two-player 10000 under both presets, the advisors, the rule sets' tab
# (forced Yatzy's two-player table read in pieces), play with the network
# cut. Every answer shown is
# checked against `reader lookup --json`; screenshots in target/browser/.
browser: tables site yazy-duel target-tables $(REDUCED)/forced-yatzy-duel.dtab
	cd tests/browser && npm ci --no-audit --no-fund --silent
	READER=$(READER) GENERATOR=$(GENERATOR) DICE_TABLES=$(abspath $(OUT)) \
		RULE_DUEL_TABLE=$(abspath $(REDUCED))/forced-yatzy-duel.dtab node tests/browser/play_served.mjs
	READER=$(READER) SITE=$(SITE) node tests/browser/play_sheet.mjs
	@# Yatzy's and Yahtzee's games played for a target, reviewed from their whole target tables.
	DICE_TABLES=$(abspath $(OUT)) $(CARGO) test --release --locked -p dice-tables-tests --test integration -- \
		--include-ignored review::built_in_games_played_for_a_target_add_up_to_reaching_it

# The reader's lookup layer as WebAssembly (crates/npm/wasm), for the npm package
# and the static site, with the standard library rebuilt from its source
# (RUSTC_BOOTSTRAP=1 -Zbuild-std) so that panics abort without their
# messages (-Cpanic=immediate-abort): none reaches a caller, and their
# formatting would cost 60 KB. The compiler: rustup's, when its
# wasm32-unknown-unknown target and rust-src component are installed
# (`rustup target add wasm32-unknown-unknown && rustup component add
# rust-src`); else Debian's (packages rustc-web cargo-web rust-web-src lld,
# /usr/bin/rustc and /usr/bin/cargo, which .ci/run installs). Then shrunk by
# binaryen's wasm-opt (package binaryen); its size is the one the npm
# package's README and the guide give (npm-test checks it).
WASM_DIR := target/wasm
WASM := $(WASM_DIR)/dice_tables.wasm
RUSTUP_WASM := $(shell rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown && \
	rustup component list --installed 2>/dev/null | grep -q '^rust-src' && echo yes)
ifeq ($(RUSTUP_WASM),yes)
WASM_TOOLCHAIN := rustup's wasm32-unknown-unknown target ($(shell rustc --version))
WASM_TOOLS := $(CARGO)
else
WASM_TOOLCHAIN := Debian's rustc-web ($(shell /usr/bin/rustc --version 2>/dev/null))
WASM_TOOLS := RUSTC=/usr/bin/rustc CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld /usr/bin/cargo
endif
# WASM_FEATURES: the module crate's features (`make site`'s first module
# is built with solitaire-only). Every module is built in one directory,
# which holds one build of the standard library for them all; each is
# written to $(WASM_DIR).
WASM_FEATURES :=
WASM_BUILD := target/wasm-build
WASM_CARGO := RUSTC_BOOTSTRAP=1 \
	RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort $(REMAP_PATHS)" CARGO_TARGET_DIR=$(abspath $(WASM_BUILD)) $(WASM_TOOLS)
wasm:
	@if [ "$(RUSTUP_WASM)" != yes ] && [ ! -x /usr/bin/rustc ]; then \
		echo "make wasm: no compiler for wasm32: run rustup target add wasm32-unknown-unknown && rustup component add rust-src, or apt-get install rustc-web cargo-web rust-web-src lld"; exit 1; fi
	@command -v wasm-opt >/dev/null || { echo "make wasm: no wasm-opt (binaryen), which shrinks the module: apt-get install binaryen"; exit 1; }
	@echo "wasm: compiling with $(WASM_TOOLCHAIN)"
	$(WASM_CARGO) build --profile wasm --locked -p dice-tables-wasm $(WASM_FEATURES) --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort
	mkdir -p $(WASM_DIR)
	wasm-opt -Oz --enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int --enable-mutable-globals \
		-o $(WASM) $(WASM_BUILD)/wasm32-unknown-unknown/wasm/dice_tables_wasm.wasm
	@echo "wasm: $$(stat -c %s $(WASM)) bytes, $$(gzip -9 -c $(WASM) | wc -c) gzipped"

# The npm package `dice-tables` (crates/npm/): the tarball `npm pack` makes, in
# target/npm/. npm-test installs it into a scratch project and asks it every
# golden lookup and refusal (crates/npm/test/golden.mjs), whole and read in
# pieces over range requests, then checks the tarball is the one to publish.
NPM_VERSION := $(shell sed -n 's/^  "version": "\(.*\)",$$/\1/p' crates/npm/package.json)
npm: wasm
	rm -rf target/npm/package && mkdir -p target/npm/package
	cp crates/npm/package.json crates/npm/index.js crates/npm/index.d.ts crates/npm/README.md $(WASM) target/npm/package/
	cd target/npm && npm pack ./package --silent >/dev/null
	@echo "npm: target/npm/dice-tables-$(NPM_VERSION).tgz"
npm-test: npm tables yazy-target reduced-target-tables
	@# The source folder, which has no module, refuses to be packed or installed, saying how.
	cd crates/npm && ! npm pack --dry-run --silent 2> ../../target/npm/refused.txt > /dev/null
	grep -q "make npm builds the package" target/npm/refused.txt
	rm -rf target/npm/scratch && mkdir -p target/npm/scratch
	cd target/npm/scratch && echo '{"name": "scratch", "private": true, "type": "module"}' > package.json && \
		npm install --no-audit --no-fund --silent ../dice-tables-$(NPM_VERSION).tgz
	cp crates/npm/test/golden.mjs crates/npm/test/range_server.mjs crates/npm/test/rule_set.mjs crates/npm/test/same_review.mjs target/npm/scratch/
	cd target/npm/scratch && GOLDEN=$(abspath tests/golden) DICE_TABLES=$(abspath $(OUT)) \
		DICE_TARGET_TABLES=$(abspath $(REDUCED)) READER=$(abspath $(READER)) node golden.mjs
	cd target/npm/scratch && GENERATOR=$(abspath $(GENERATOR)) READER=$(abspath $(READER)) node rule_set.mjs
	@# The module's size, as the package's README and the guide give it.
	node crates/npm/test/size.mjs target/npm/package/dice_tables.wasm crates/npm/README.md docs/GUIDE.md
	@# The tarball is the one to publish: npm's dry run takes it, and it holds exactly the package's files.
	cd target/npm && npm publish --dry-run dice-tables-$(NPM_VERSION).tgz 2>&1 | grep -qx '+ dice-tables@$(NPM_VERSION)'
	test "$$(tar -tzf target/npm/dice-tables-$(NPM_VERSION).tgz | sort | tr '\n' ' ')" = \
		"package/README.md package/dice_tables.wasm package/index.d.ts package/index.js package/package.json "
	@echo "npm: npm publish --dry-run takes target/npm/dice-tables-$(NPM_VERSION).tgz (5 files)"

# The static site: the page `reader serve` serves (crates/serve/web),
# answering in the page through the npm package's module (backend-wasm.js
# as backend.js) from the tables it fetches (yahtzee under both joker
# readings, yatzy, the duel presets, yazy, threes, tenk, Maxi Yatzy under
# the finnish rules), in target/site/ for any static file server. The
# page's head there also asks for the module and the yahtzee table while
# its scripts load (site-head.html: files only the static site has, put in
# place of a marker comment). Its module is the npm package's without
# two-player yazy and Maxi Yatzy (its feature solitaire-only): code the
# page's 1.5 MB before the first advice has no room for. The Maxi Yatzy tab
# and play against someone fetch the whole package's module
# (dice-tables/full.wasm) when first asked; against someone the page reads
# yazy's two-player table and the target tables in pieces, so the site's
# server must honour HTTP Range requests (most do; the page says so in one
# line when one does not). (The swedish table, 1.5 GB, is for `reader serve`.)
# Its rule sets' tab is in the page from the start (site-rules.html, put
# in place of a marker comment at the end of the body), its code
# (rules.js, and rules-wasm.js as rules-backend.js) fetched on its first
# tap, when it reads the tables below (rule-sets.json).
SITE := target/site
WEB := crates/serve/web
# The page (index.html) goes without its indentation and blank lines (its
# one textarea is empty), and the site's scripts without their comment
# lines, blank lines and indentation (a fifth
# of their bytes, before the first advice). Safe for these files: no
# template literal or string spans lines, and no comment shares a line
# with code at its start (the browser tests run the stripped files).
STRIP_JS := sed -E -e '/^\s*\/\*\*.*\*\/\s*$$/d' -e '/^\s*\/\*\*/,/\*\//d' -e '/^\s*\/\//d' -e 's/^\s+//' -e '/^$$/d'
SITE_TABLES := yahtzee yatzy duel duel-cardgames yazy threes tenk maxi-yatzy
# Read in pieces over range requests by play against someone and for a
# score (linked, not copied: 1.3 GB).
SITE_RANGED_TABLES := yazy-duel yazy-target yatzy-target yahtzee-target
SITE_WASM_DIR := target/wasm-solitaire
# yahtzee under the free joker reading, for the site only: reader serve's
# browser test serves $(OUT), where the free reading's table must be absent.
SITE_FREE := target/site-tables/yahtzee-free.dtab
$(SITE_FREE): $(GENERATOR)
	$(GENERATOR) --out $(dir $@) --games yahtzee-free > /dev/null
# The rule sets' tab: each preset's own table fetched whole when the tab is
# first shown, its target table and its two-player table read in pieces:
# forced Yatzy's always (3.8 MB, solved in seconds for the site), the
# others' where `make rule-duel-tables` wrote them into $(OUT) (linked);
# each preset's parts table, fetched whole with its own table on its first
# review (the reasons), and Yatzy's and Yahtzee's, fetched with theirs on
# the first review of a game of them (and for a game of them played for a
# score, their target table, read in pieces, and for yazy against someone,
# its two-player table, in pieces). tables/rule-sets.json names them for
# the page.
# Maxi Yatzy's parts table (441 MB), linked where `make maxi-yatzy-parts`
# wrote it into $(OUT): a review of a Maxi Yatzy game then reads it and
# Maxi Yatzy's table in pieces (tables/rule-sets.json's `parts_in_pieces`);
# a site without it (`parts_left_out`) says so in the coach's line.
SITE_OPTIONAL_PARTS := maxi-yatzy-parts
SITE_RULE_DUEL := target/site-tables/forced-yatzy-duel.dtab
$(SITE_RULE_DUEL): $(GENERATOR)
	$(GENERATOR) --out $(dir $@) --games forced-yatzy-duel > /dev/null
json_list = $(subst $(space),$(comma),$(foreach t,$(1),"$(t)"))
site: npm tables yazy-duel target-tables $(SITE_FREE) $(SITE_RULE_DUEL)
	$(MAKE) wasm WASM_DIR=$(SITE_WASM_DIR) WASM_FEATURES=--features=solitaire-only
	rm -rf $(SITE) && mkdir -p $(SITE)/dice-tables $(SITE)/tables
	cp $(WEB)/style.css $(SITE)/
	for f in page play review duel advisors rules coach; do $(STRIP_JS) $(WEB)/$$f.js > $(SITE)/$$f.js; done
	sed -e '/<!-- make site: site-head.html -->/{r $(WEB)/site-head.html' -e 'd}' \
		-e '/<!-- make site: site-rules.html -->/{r $(WEB)/site-rules.html' -e 'd}' \
		-e 's/^[[:space:]]*//' -e '/^$$/d' $(WEB)/index.html > $(SITE)/index.html
	$(STRIP_JS) $(WEB)/rules-wasm.js > $(SITE)/rules-backend.js
	$(STRIP_JS) $(WEB)/backend-wasm.js > $(SITE)/backend.js
	$(STRIP_JS) target/npm/package/index.js > $(SITE)/dice-tables/index.js
	cp $(SITE_WASM_DIR)/dice_tables.wasm $(SITE)/dice-tables/
	cp target/npm/package/dice_tables.wasm $(SITE)/dice-tables/full.wasm
	cp $(SITE_TABLES:%=$(OUT)/%.dtab) $(SITE)/tables/
	for t in $(SITE_RANGED_TABLES); do ln -f $(OUT)/$$t.dtab $(SITE)/tables/ 2>/dev/null || cp $(OUT)/$$t.dtab $(SITE)/tables/; done
	cp $(SITE_FREE) $(SITE)/tables/
	cp $(RULE_TABLES:%=$(OUT)/%.dtab) $(RULE_PARTS_TABLES:%=$(OUT)/%.dtab) $(BUILT_IN_PARTS_TABLES:%=$(OUT)/%.dtab) $(SITE_RULE_DUEL) $(SITE)/tables/
	for t in $(RULE_TARGET_TABLES) $(filter-out forced-yatzy-duel,$(RULE_DUEL_TABLES)) $(SITE_OPTIONAL_PARTS); do \
		[ ! -f $(OUT)/$$t.dtab ] || ln -f $(OUT)/$$t.dtab $(SITE)/tables/ 2>/dev/null || cp $(OUT)/$$t.dtab $(SITE)/tables/; done
	echo '{"whole": [$(call json_list,$(RULE_TABLES))], "pieces": ['"$$(cd $(SITE)/tables && \
		for t in $(RULE_TARGET_TABLES) $(RULE_DUEL_TABLES); do [ ! -f $$t.dtab ] || printf '"%s",' $$t; done | sed 's/,$$//')"'], "parts": [$(call json_list,$(RULE_TABLES) $(BUILT_IN_PARTS_TABLES:%-parts=%))], "parts_in_pieces": ['"$$(cd $(SITE)/tables && \
		for t in $(SITE_OPTIONAL_PARTS); do [ ! -f $$t.dtab ] || printf '"%s",' $${t%-parts}; done | sed 's/,$$//')"'], "parts_left_out": ['"$$(cd $(SITE)/tables && \
		for t in $(SITE_OPTIONAL_PARTS); do [ -f $$t.dtab ] || printf '"%s",' $${t%-parts}; done | sed 's/,$$//')"'], "built_in_targets": [$(call json_list,$(patsubst %-target,%,$(filter %-target,$(SITE_RANGED_TABLES))))], "built_in_duels": [$(call json_list,$(patsubst %-duel,%,$(filter %-duel,$(SITE_RANGED_TABLES))))]}' \
		> $(SITE)/tables/rule-sets.json
	@echo "site: $(SITE) ($$(du -sb $(SITE) | cut -f1) bytes, $$(du -sbL $(SITE_RANGED_TABLES:%=$(SITE)/tables/%.dtab) $$(for t in $(SITE_OPTIONAL_PARTS); do \
		[ ! -f $(SITE)/tables/$$t.dtab ] || echo $(SITE)/tables/$$t.dtab; done) | awk '{n += $$1} END {print n}') of them read in pieces)"

# Criterion benchmarks: solve times, in-process lookups, and whole-process
# timings of `generator` (what `make tables` runs) and `reader lookup`; the
# Python package's call overhead over the Rust lookup (timeit); a load test
# of `reader serve` (1,000,000 lookups over 4 connections on loopback); then
# combo's optimal play against the seed's heuristic over 1,000,000 games each
# (writes target/combo-scores.svg), and 1,000,000 games each of yatzy and
# yahtzee (both joker readings) from their tables, whose means must be
# within 4 standard errors of the tables' values (writes target/*-scores.svg).
# The target tables, built first, are checked whole against the manifest,
# played (100,000 games each, to reach 250 and 300), asked the golden target
# lookups (tests/golden/target.json, which `make test` asks of reduced
# tables), and their curves redrawn and compared with reader/doc/. The
# two-player yazy table, built and timed first, is asked the golden
# two-player lookups and checked whole (every chunk, the yazy-target
# brackets, the brute force on random small states) as `make test` checks
# the reduced one; and its figures against the max-expected-score player
# (the table's player, the best response and the opponent-aware advisor,
# each seat; then the advisor against the table's player and itself, its
# targets asserted: over two hours on this 2-core machine, 3.1 GB at its
# peak) are evaluated exactly over every state, then 200,000 games of the table's
# player against itself and 200,000 against the max-expected-score player
# are played from the tables, each share within 4 standard errors of its
# exact figure. Two players of forced Yatzy likewise (the rules engine's
# joint solve, its player's and the best response's evaluations, then
# 200,000 games each way: about 8 minutes), its table timed and asked
# in process; then every two-player rule-set table (make rule-duel-tables)
# checked whole beside its rule set's target table, and the whole yazy-duel
# table against the rules engine's yazy (a sample of its pairs, every lead);
# then 10,000 games of each preset rule set, of Yatzy, Yahtzee, yazy and
# Maxi Yatzy (after make maxi-yatzy-parts: 20 minutes, 19 GB), of 10000
# and turns of threes reviewed from their text, the dice's luck less the
# decisions' losses the score less the start's value;
# then the coach's reference players, 10,000 games each of every preset
# and of yatzy, yahtzee, yazy and Maxi Yatzy (their presets solved in
# memory; Maxi Yatzy's 32 minutes), against two-player yazy's table (50
# minutes), 10000's alone and two-player, and against the two-player
# tables of Generala, Yacht and Crag, their figures held to
# crates/lookup/src/reference_players.tsv.
bench: tables python
	start=$$(date +%s); $(GENERATOR) --out $(OUT) --games $(subst $(space),$(comma),$(TARGET_TABLES)) && \
		echo "target tables: $$(( $$(date +%s) - start )) s whole command"
	/usr/bin/time -f "yazy-duel: %e s whole command, %U s user, %S s system, %M KB peak" \
		$(GENERATOR) --out $(OUT) --games yazy-duel
	/usr/bin/time -f "maxi-yatzy: %e s whole command, %U s user, %S s system, %M KB peak" \
		$(GENERATOR) --out $(OUT) --games maxi-yatzy
	/usr/bin/time -f "maxi-yatzy-swedish: %e s whole command, %U s user, %S s system, %M KB peak" \
		$(GENERATOR) --out $(OUT) --games maxi-yatzy-swedish
	$(CARGO) run --release --locked -p dice-tables-generator --example maxi_games -- 200000 $(OUT)
	$(CARGO) run --release --locked -p dice-tables-generator --example yazy_versus -- all $(OUT)
	$(CARGO) run --release --locked -p dice-tables-generator --example yazy_duel_games -- 200000 $(OUT)
	/usr/bin/time -f "forced-yatzy-duel: %e s whole command, %U s user, %S s system, %M KB peak" \
		$(GENERATOR) --out $(OUT) --games forced-yatzy-duel
	$(CARGO) run --release --locked -p dice-tables-generator --example rule_duel_games -- forced-yatzy 200000 $(OUT)
	$(MAKE) rule-duel-tables
	$(MAKE) rule-duel-games
	DICE_RULE_DUEL_TABLES=$(abspath $(OUT)) $(CARGO) test --release --locked -p dice-tables-tests --test integration -- \
		rule_duel::every_two_player_rule_set_table_holds_its_chances
	$(CARGO) run --release --locked -p dice-tables-generator --example sheet_versus_games -- 1000000 $(OUT)
	$(CARGO) bench --locked $(WORKSPACE)
	DICE_TABLES=$(abspath $(OUT)) $(VENV)/bin/python crates/python/benchmarks/overhead.py
	$(BIN)/loadtest $(OUT) 1000000 4
	$(CARGO) run --release --locked -p dice-tables-generator --example combo_vs_heuristic
	$(CARGO) run --release --locked -p dice-tables-generator --example sheet_games -- 1000000 $(OUT)
	start=$$(date +%s); $(GENERATOR) --out target/free-tables --games yahtzee-free,yahtzee-free-target && \
		echo "yahtzee-free and yahtzee-free-target: $$(( $$(date +%s) - start )) s whole command"
	$(CARGO) run --release --locked -p dice-tables-generator --example target_games -- 100000 $(OUT) target/free-tables tables/checksums.b3
	DICE_TARGET_TABLES=$(abspath $(OUT)) $(CARGO) test --release --locked -p dice-tables-tests --test integration -- --include-ignored \
		golden::every_golden_target_lookup_gets_its_answer golden::every_golden_two_player_lookup_gets_its_answer \
		yazy_duel::the_table_agrees_with_the_target_table_and_brute_force \
		yazy_duel::the_advisor_plays_the_last_turn_as_the_two_player_table \
		rule_duel::the_rules_engine_s_yazy_is_the_yazy_duel_table
	DICE_REVIEW_GAMES=10000 DICE_TARGET_TABLES=$(abspath $(OUT)) $(CARGO) test --release --locked -p dice-tables-tests --test integration -- \
		review::the_dice_and_the_decisions_add_up_to_the_score \
		review::games_played_for_a_target_add_up_to_reaching_it \
		review::games_against_someone_add_up_to_winning review::yazy_games_played_for_a_target_add_up_to_reaching_it \
		review::yazy_games_against_someone_add_up_to_winning \
		tenk_review::tenk_games_alone_add_up_to_the_points_banked tenk_review::duel_games_add_up_to_winning \
		threes_review::threes_turns_add_up_to_the_chance_of_success --nocapture
	DICE_REVIEW_GAMES=10000 $(MAKE) maxi-yatzy-parts
	DICE_RULE_SET_GAMES=200000 $(TEST_ENV) $(CARGO) test --release --locked -p dice-tables-tests --test integration -- \
		--include-ignored rule_tables::games_played_by_each_preset_table_score_as_its_exact_distribution_says \
		rule_tables::games_played_by_the_yahtzee_variants_tables_average_their_start_values --nocapture
	$(BIN)/reference-players 10000 $(OUT) --duels $(OUT) --check crates/lookup/src/reference_players.tsv
	$(BIN)/reference-players 10000 $(OUT) --check crates/lookup/src/reference_players.tsv maxi-yatzy yazy:two \
		tenk duel:two duel-cardgames:two
	$(BIN)/reference-players 10000 $(OUT) --duels $(OUT) --check crates/lookup/src/reference_players.tsv generala:two yacht:two crag:two
	for g in yatzy yahtzee; do $(READER) curve $$g --tables $(OUT) --svg target/$$g-curve.svg > /dev/null && cmp target/$$g-curve.svg reader/doc/$$g-curve.svg || exit 1; done

# Deliberately accept new reference figures for the coach: 10,000 games of
# each reference player of each preset and of yatzy, yahtzee and yazy
# (about 26 minutes here), and of Crag, forced Yatzy and Generala played
# for a target (about 25 minutes more), written
# where the reviews' ratings read them.
reference-players: tables $(REDUCED)/forced-yatzy-duel.dtab
	$(CARGO) build --release --locked -p dice-tables-tests --bin reference-players
	$(BIN)/reference-players 10000 $(OUT) --duels $(REDUCED) --write crates/lookup/src/reference_players.tsv

# The same for Maxi Yatzy (its finnish rules' preset solved by the rules
# engine, then 10,000 games of each player: 32 minutes and 1.9 GB here),
# written beside the others' (each target keeps the other's rows); `make
# bench` checks them too.
maxi-yatzy-reference: tables
	$(CARGO) build --release --locked -p dice-tables-tests --bin reference-players
	$(BIN)/reference-players 10000 $(OUT) --write crates/lookup/src/reference_players.tsv maxi-yatzy

# And for two-player yazy: each reference player against yazy-duel.dtab's
# optimal player, 10,000 games each (50 minutes and 0.7 GB here, beside
# other work).
yazy-duel-reference: tables $(OUT)/yazy-duel.dtab
	$(CARGO) build --release --locked -p dice-tables-tests --bin reference-players
	$(BIN)/reference-players 10000 $(OUT) --write crates/lookup/src/reference_players.tsv yazy:two

# And for two-player Generala, Yacht and Crag (tests/src/lib.rs's
# REFERENCE_RULE_DUELS): each reference player against the two-player
# table's optimal player, 10,000 games each, from make rule-duel-tables'
# tables (71 minutes and 14.8 GB here for the three, beside other work).
rule-duel-reference: tables rule-duel-tables
	$(CARGO) build --release --locked -p dice-tables-tests --bin reference-players
	$(BIN)/reference-players 10000 $(OUT) --duels $(OUT) --write crates/lookup/src/reference_players.tsv generala:two yacht:two crag:two

# And for 10000: alone, each reference player racing to a banked 10,000;
# two players, both rules, each against the duel table's optimal player;
# 10,000 games each (tenk_players.rs; about a minute).
tenk-reference: tables
	$(CARGO) build --release --locked -p dice-tables-tests --bin reference-players
	$(BIN)/reference-players 10000 $(OUT) --write crates/lookup/src/reference_players.tsv tenk duel:two duel-cardgames:two

# Deliberately accept new table output: regenerate and rewrite the manifest
# (every default table and the target tables: minutes).
manifest: $(GENERATOR)
	$(GENERATOR) --out $(OUT) --games $(subst $(space),$(comma),$(MANIFEST_TABLES)) --manifest tables/checksums.b3

# Deliberately accept new lookup answers: rewrite tests/golden/ (lookups in
# every game and the reader's JSON answers, which every reader must give).
golden: tables yazy-target reduced-target-tables
	$(BIN)/golden $(OUT) $(REDUCED) tests/golden

# Coverage-guided fuzzing of the reader with cargo-fuzz (installed from
# crates.io when missing) on the stable toolchain: RUSTC_BOOTSTRAP=1 lets it
# use the sanitizer flags it needs (AddressSanitizer). Each target runs
# FUZZ_SECONDS from the committed seeds (fuzz/seeds/), plus the
# current tables for open_table; the http target serves the tables in
# $(OUT). Leak detection is off: LeakSanitizer reports the C library's
# thread-exit allocations here, a false positive. A crash fails the run and
# leaves its input in fuzz/artifacts/. .ci/run runs it for 30 s. The targets
# are built once, then run two at a time (each fuzzer uses one core), each
# one's output printed whole when it ends.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS := open_table parse_inputs http c_api
FUZZ_MAX_LEN_open_table := 200000
FUZZ_MAX_LEN_http := 70000
FUZZ_MAX_LEN_c_api := 4096
FUZZ_CARGO := cd fuzz && RUSTC_BOOTSTRAP=1 DICE_TABLES=$(abspath $(OUT)) $(CARGO) fuzz
FUZZ_ARGS = -max_total_time=$(FUZZ_SECONDS) -detect_leaks=0 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
fuzz: tables
	command -v cargo-fuzz >/dev/null || $(CARGO) install --locked cargo-fuzz@0.13.2
	mkdir -p $(FUZZ_TARGETS:%=fuzz/corpus/%)
	cp $(OUT)/combo.dtab $(OUT)/threes.dtab $(OUT)/tenk.dtab fuzz/corpus/open_table/
	$(FUZZ_CARGO) build -O
	$(MAKE) -j2 --output-sync=target $(FUZZ_TARGETS:%=fuzz-run-%)
fuzz-run-%:
	$(FUZZ_CARGO) run -O $* corpus/$* seeds/$* -- $(FUZZ_ARGS) $(if $(FUZZ_MAX_LEN_$*),-max_len=$(FUZZ_MAX_LEN_$*))

# The crates as crates.io takes them: `cargo publish --dry-run` of the
# reader library, the generator and the command-line helpers the generator
# uses (packaged together: each one's workspace dependencies resolve to the
# others' tarballs), each tarball verified by building it; then the
# reader's tarball unpacked into a scratch directory and built there
# offline, from nothing but its own files and the crates it names.
CRATE_VERSION := $(shell sed -n 's/^version = "\(.*\)"$$/\1/p' Cargo.toml | head -1)
PUBLISHED := dice-tables-reader dice-tables-terminal dice-tables-generator
publish-check:
	@# Cargo unpacks each tarball of the dry run's temporary registry under
	@# ~/.cargo/registry/src once per registry path, and reuses an earlier
	@# run's unpacking of the same name and version without looking inside:
	@# a checkout dry-run twice would verify against its old sources.
	rm -rf $(wildcard $(PUBLISHED:%=$(or $(CARGO_HOME),$(HOME)/.cargo)/registry/src/*/%-$(CRATE_VERSION)))
	$(CARGO) publish --dry-run --locked --allow-dirty $(PUBLISHED:%=-p %)
	$(CARGO) package --locked --allow-dirty --no-verify -q -p dice-tables-reader
	@# Outside this workspace (a directory under it would belong to it).
	scratch=$$(mktemp -d) && trap 'rm -rf "$$scratch"' EXIT && \
		tar -xzf target/package/dice-tables-reader-$(CRATE_VERSION).crate -C "$$scratch" && \
		cd "$$scratch/dice-tables-reader-$(CRATE_VERSION)" && \
		CARGO_TARGET_DIR=$(abspath target/crate-build) $(CARGO) build --offline --locked
	@echo "publish-check: $(PUBLISHED) package and build for crates.io; the reader's tarball builds offline on its own"

# The release bundle, target/dist/: the two programs (bin/), every table
# `make tables` writes with its lines of the checksum manifest (tables/),
# the wheel (python/), the npm tarball (npm/), the C header and libraries
# (c/), the README, CHANGELOG, licence and file format, and SHA256SUMS
# listing every other file's sha256 (sha256sum --check reads it). Every
# part is the same bytes when built again from the same commit: the tables
# and programs are (the manifest and the release profile), the wheel's and
# the npm tarball's timestamps are fixed and their files sorted, the
# WebAssembly module's and the wheel's source paths are rewritten, and
# nothing in the bundle records when or where it was made. dist-check
# builds it a second time from a fresh clone of HEAD in a scratch
# directory (its own build directory: every program, the wheel, the module
# and the C library rebuilt) and compares the two checksum lists. The clone
# takes this checkout's tables (DIST_TABLES_FROM) rather than solving them
# again: that they are the manifest's bytes is what `make test` checks, and
# the bundle holds the manifest's lines, so a second solve would check it
# twice.
DIST := target/dist
DIST_TABLES_FROM ?=
DIST_TABLE_DIR := $(or $(DIST_TABLES_FROM),$(OUT))
DIST_TABLES := $(TABLES)
dist: build $(if $(DIST_TABLES_FROM),,tables) wheel npm c-lib
	rm -rf $(DIST) && mkdir -p $(DIST)/bin $(DIST)/tables $(DIST)/python $(DIST)/npm $(DIST)/c/include $(DIST)/c/lib
	cp $(GENERATOR) $(READER) $(DIST)/bin/
	cp $(DIST_TABLES:%=$(DIST_TABLE_DIR)/%.dtab) $(DIST)/tables/
	grep -E '  ($(subst $(space),|,$(DIST_TABLES)))\.dtab$$' tables/checksums.b3 > $(DIST)/tables/checksums.b3
	test $$(wc -l < $(DIST)/tables/checksums.b3) = $(words $(DIST_TABLES))
	$(READER) verify $(DIST)/tables > /dev/null
	cp $(WHEEL) $(DIST)/python/
	cp target/npm/dice-tables-$(NPM_VERSION).tgz $(DIST)/npm/
	cp crates/c/include/dice_tables.h $(DIST)/c/include/
	cp $(BIN)/libdice_tables.a $(BIN)/libdice_tables.so $(DIST)/c/lib/
	cp README.md CHANGELOG.md LICENSE reader/FORMAT.md $(DIST)/
	cd $(DIST) && find . -type f ! -name SHA256SUMS | LC_ALL=C sort | xargs sha256sum > SHA256SUMS
	@# No file names the checkout it was built in, the wheel's and the npm
	@# tarball's contents unpacked too: a path there would make a build
	@# elsewhere differ (dist-check finds any other difference, building
	@# everything again from a fresh clone).
	scratch=$$(mktemp -d) && trap 'rm -rf "$$scratch"' EXIT && \
		$(PYTHON) -m zipfile -e $(DIST)/python/*.whl "$$scratch/wheel" && \
		tar -xzf $(DIST)/npm/*.tgz -C "$$scratch" && \
		named=$$(grep -r -l -a -F "$(abspath .)" $(DIST) "$$scratch" | sed "s|^$$scratch/||"); \
		if [ -n "$$named" ]; then echo "dist: these name the checkout $(abspath .):" $$named; exit 1; fi
	@echo "dist: $(DIST) ($$(wc -l < $(DIST)/SHA256SUMS) files, $$(du -sb $(DIST) | cut -f1) bytes), listed in $(DIST)/SHA256SUMS; none names the checkout"
dist-check: dist
	scratch=$$(mktemp -d) && trap 'rm -rf "$$scratch"' EXIT && \
		git clone --quiet --no-hardlinks . "$$scratch/dice-tables" && \
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $(MAKE) -C "$$scratch/dice-tables" dist DIST_TABLES_FROM=$(abspath $(OUT)) && \
		diff $(DIST)/SHA256SUMS "$$scratch/dice-tables/$(DIST)/SHA256SUMS"
	@echo "dist-check: two builds of the bundle, in two checkouts, have the same $$(wc -l < $(DIST)/SHA256SUMS) checksums"

clean:
	$(CARGO) clean
	rm -f tables/*.dtab
