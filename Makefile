# Two entry points for a fresh machine with Python 3.11+: `make play` (a game in the browser) and
# `make test`; `make play-terminal` plays in the terminal, `make demo` shows the world without playing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXTRAS := $(VENV)/.installed-research

.PHONY: play play-terminal demo test lint setup clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The research interfaces' libraries (OpenSpiel, PettingZoo, Ray: about 470 MB) for the tests only,
# so that `make play` stays a small install.
$(EXTRAS): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,research,ray,web,webtest]'
	touch $(EXTRAS)

setup: $(STAMP)

# The web app's libraries (FastAPI, uvicorn, SQLAlchemy, ...), for `make play`.
WEB := $(VENV)/.installed-web
$(WEB): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,web]'
	touch $(WEB)

## Set up (with the web app's libraries), then serve the 1933 campaign on http://127.0.0.1:PORT
## (default 8000) with you as POWER (default germany) and heuristic bots in every other seat:
## open the private link it prints. Games are kept in grandstrategy-server.db (the link in
## grandstrategy-play.json) in this folder, so `make play` again resumes the same game; NEW=1
## starts a new one; POWER=france with a game for another power says so. Ctrl-C stops the
## server (exit 0). SCENARIO=europe-1939 chooses the scenario of a new game.
POWER ?=
SAVE ?= cataclysm-game.json
SCENARIO ?= campaign-1933
SEED ?=
PORT ?= 8000
play: $(WEB)
	@$(BIN)/grandstrategy serve --play --port $(PORT) --scenario $(SCENARIO) $(if $(POWER),--power $(POWER)) $(if $(NEW),--new) --from-make "make play$(if $(filter-out 8000,$(PORT)), PORT=$(PORT))"

## Set up, then play the 1933 campaign in the terminal as POWER (default germany) against
## heuristic bots; the game is saved to SAVE after every action, and `make play-terminal` again
## resumes it. POWER=france with a saved game for another power says so (and offers a new game at
## a terminal); NEW=1 starts a new game, replacing the save. Ctrl-C saves and leaves (exit 0, no
## make error). SCENARIO=europe-1939 and SEED=N choose the scenario and the seed of a new game.
play-terminal: $(STAMP)
	@test -f $(SAVE) || test -n "$(NEW)" || $(BIN)/grandstrategy new cataclysm --scenario $(SCENARIO) --seats $(or $(POWER),germany) --save $(SAVE) $(if $(SEED),--seed $(SEED))
	@$(BIN)/grandstrategy play $(SAVE) $(if $(POWER),--power $(POWER)) $(if $(NEW),--new) --from-make "make play-terminal$(if $(filter-out cataclysm-game.json,$(SAVE)), SAVE=$(SAVE))"

## Set up, then show the Cataclysm world (map as SVG, an area look-up, the module check) and
## play one whole game of the 1939 scenario with every power choosing at random.
demo: $(STAMP)
	$(BIN)/grandstrategy cataclysm map --scenario campaign-1933 --out cataclysm-map.svg
	$(BIN)/grandstrategy cataclysm area Turkey
	$(BIN)/grandstrategy cataclysm check
	$(BIN)/grandstrategy cataclysm selfplay --scenario europe-1939 --seed 1

## Set up, then run the whole test suite.
test: $(EXTRAS)
	$(BIN)/python -m pytest

lint: $(EXTRAS)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
