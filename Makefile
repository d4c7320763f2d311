# Two commands for a fresh machine (each sets itself up):
#   make demo   runs the demonstration evening in examples/
#   make test   runs the whole test suite: pytest with doctests, ruff, mypy --strict, and
#               Biome on the pages' scripts and style sheet
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin

.PHONY: demo test fuzz bench browser postgres locales clean messages readme-evening

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,postgres,serve]'
	touch $@

# The demo's output is kept in examples/demo-output.txt, with the clock masked
# (dates and times of the run, ISO and as each language writes them) so that the file changes only when the program does;
# examples/demo-output.en.txt and examples/demo-output.de.txt are the same evening in
# each language (ROMME_LANG), the German one checked for English by tests/test_i18n.py.
MASK_CLOCK = sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\+00:00/YYYY-MM-DDThh:mm:ss+00:00/g' \
	       -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}/YYYY-MM-DD/g' \
	       -e 's/\b[0-9]{1,2}\.[0-9]{1,2}\.[0-9]{4}, [0-9]{2}:[0-9]{2}/D.M.YYYY, hh:mm/g' \
	       -e 's/\b[0-9]{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4}, [0-9]{2}:[0-9]{2}/D Mon YYYY, hh:mm/g' \
	       -e 's/\b[0-9]{1,2}\.[0-9]{1,2}\.[0-9]{4}\b/DD.MM.YYYY/g' \
	       -e 's/\b[0-9]{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4}\b/DD Mon YYYY/g'

demo: $(BIN)/.installed
	@PATH="$(CURDIR)/$(BIN):$$PATH" ROMME_LANG=en bash examples/demo.sh > examples/.demo-output.tmp 2>&1; \
	status=$$?; cat examples/.demo-output.tmp; \
	$(MASK_CLOCK) examples/.demo-output.tmp > examples/demo-output.txt; \
	cp examples/demo-output.txt examples/demo-output.en.txt; \
	PATH="$(CURDIR)/$(BIN):$$PATH" ROMME_LANG=de bash examples/demo.sh > examples/.demo-output.tmp 2>&1; \
	$(MASK_CLOCK) examples/.demo-output.tmp > examples/demo-output.de.txt; \
	rm -f examples/.demo-output.tmp; exit $$status

# Extract the messages, update the catalogs in romme_score/locale and compile them
# (a development step: needs Babel, from the test extra; the program reads only the .mo).
messages: $(BIN)/.installed
	$(BIN)/python tools/messages.py

# The German evening of 12 rounds in docs/table-mode.md: typed into romme play in a
# pseudo-terminal of 80x24 and its screens written between its markers
# (tests/test_readme_evening.py holds it to what the table mode shows now). Run it after changing the table mode.
readme-evening: $(BIN)/.installed
	$(BIN)/python tools/capture_evening.py --write

# The report's screenshot test (tests/test_report.py) needs Chromium. On CI (CI=true,
# root, apt) it is installed from Debian's packages; anywhere else nothing is installed
# and the test skips, saying why.
browser:
	@if [ "$${CI:-}" = true ] && ! command -v chromium >/dev/null 2>&1 \
	    && command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  echo "installing chromium for the report screenshot test"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium \
	    >/dev/null) || echo "chromium could not be installed: the screenshot test will skip"; \
	fi

# The PostgreSQL tests need a server: tools/with_postgres.py starts a throw-away one
# (Debian's postgresql package; on CI it is installed here if missing) and removes it after.
postgres:
	@if [ "$${CI:-}" = true ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
	    && command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  echo "installing postgresql for the PostgreSQL tests"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql \
	    >/dev/null) || echo "postgresql could not be installed: the PostgreSQL tests will fail on CI"; \
	fi

# The locale matrix of the hostile harness (tests/test_hostile.py) builds de_DE.ISO-8859-1
# and tr_TR.UTF-8 with localedef from Debian's locale sources. On CI (CI=true, root, apt)
# they are installed where missing; anywhere else nothing is installed and those
# locales skip, saying why.
locales:
	@if [ "$${CI:-}" = true ] && ! { command -v localedef >/dev/null 2>&1 && [ -f /usr/share/i18n/locales/de_DE ]; } \
	    && command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  echo "installing locales for the locale matrix"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq locales \
	    >/dev/null) || echo "locales could not be installed: the built locales will skip"; \
	fi

# The pages' scripts and style sheet are checked by Biome (formatter and linter), and the
# browser tests inject axe-core (accessibility rules) into every page: npm packages at the
# exact versions of tools/js/package-lock.json, installed by npm ci when
# tools/js/node_modules is missing or the lock changed; Biome's settings: tools/js/biome.json.
JS = tools/js
$(JS)/node_modules/.installed: $(JS)/package.json $(JS)/package-lock.json
	npm ci --prefix $(JS) --no-audit --no-fund
	touch $@

# pytest on every core (pytest-xdist; PYTEST_WORKERS=0 runs in one process), beside a
# throw-away PostgreSQL server.
PYTEST_WORKERS ?= auto
test: $(BIN)/.installed $(JS)/node_modules/.installed browser postgres locales
	$(BIN)/python tools/with_postgres.py $(BIN)/python -m pytest -n $(PYTEST_WORKERS)
	$(BIN)/ruff check romme_score tests benchmarks
	$(BIN)/ruff format --check romme_score tests benchmarks
	$(BIN)/mypy --strict romme_score tests benchmarks
	$(JS)/node_modules/.bin/biome ci --config-path=$(JS) romme_score/web/static

# The long form of the hostile-input harness (make test runs a quick form of it).
fuzz: $(BIN)/.installed
	ROMME_FUZZ_EXAMPLES=$${ROMME_FUZZ_EXAMPLES:-3000} $(BIN)/python -m pytest -q tests/test_hostile.py

# Every benchmark prints its figures, and for each goal of issue 28 one GOAL line; each runs
# through tools/speed_doc.py, which keeps the output in BENCH_LOG, and at the end writes
# every GOAL line of the run into docs/speed.md (a table, with the machine and the date).
BENCH_LOG ?= .bench.log
BENCH = $(BIN)/python tools/speed_doc.py run $(BENCH_LOG) --
bench: $(BIN)/.installed
	$(BIN)/python -m pip install -q -e '.[bench]'
	rm -f $(BENCH_LOG)
	$(BENCH) $(BIN)/python benchmarks/solver.py
	$(BENCH) $(BIN)/python benchmarks/startup.py
	$(BENCH) $(BIN)/python benchmarks/sessions.py
	$(BENCH) $(BIN)/python benchmarks/stats.py
	$(BENCH) $(BIN)/python benchmarks/play.py
	$(BENCH) $(BIN)/python benchmarks/settle.py
	$(BENCH) $(BIN)/python benchmarks/tournament.py
	$(BENCH) $(BIN)/python tools/with_postgres.py $(BIN)/python benchmarks/store.py
	$(BENCH) $(BIN)/python benchmarks/serve.py
	$(BENCH) $(BIN)/python benchmarks/serve_heal.py
	$(BENCH) $(BIN)/python tools/with_postgres.py $(BIN)/python benchmarks/championship.py
	$(BIN)/python tools/speed_doc.py write $(BENCH_LOG)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache $(JS)/node_modules
