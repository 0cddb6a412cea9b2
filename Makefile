# The course's commands. On a fresh clone, `make lab` and `make test` are all a newcomer needs.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
ASSIGNMENTS := $(notdir $(wildcard solutions/[0-9][0-9]_*))
SUBMISSIONS ?= submitted
OUT ?= results
JOBS ?= 2
# pytest-xdist workers for `make test`, one test file each (a file's whole-class fixture is built once),
# slowest files first (tests/conftest.py's SLOWEST_FILES).
TEST_WORKERS ?= 2
PYTEST_ARGS ?=
# nbgrader runs tools (alembic) from PATH: put the venv first.
export PATH := $(abspath $(VENV))/bin:$(PATH)

.PHONY: setup lab test e2e release grade report bench bench-load mutants student-bundle clean

# The same test the grader makes (autograder.engine.sandbox.bwrap_works): can bubblewrap build a sandbox?
BWRAP_CHECK := bwrap --ro-bind / / --unshare-net --unshare-pid --cap-drop ALL true >/dev/null 2>&1

setup: $(STAMP)
	@$(BWRAP_CHECK) || echo "note: bubblewrap cannot build a sandbox here: grading needs it (apt-get install bubblewrap), see README's Set-up"

$(STAMP): requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# Jupyter refuses to run as root unless told; containers and these course machines run as root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

# The students' lab: the course's settings in jupyter/ (no nbgrader instructor extensions, notebooks
# that open unmodified) and a fresh workspace each time, so JupyterLab does not reopen every lesson
# left open, each with its TensorFlow kernel. Instructors run `.venv/bin/jupyter lab` for nbgrader's tools.
LAB_ENV := JUPYTER_CONFIG_PATH=$(CURDIR)/jupyter JUPYTERLAB_WORKSPACES_DIR=$(CURDIR)/.lab-workspaces

lab: setup
	rm -rf .lab-workspaces
	$(LAB_ENV) $(VENV)/bin/jupyter lab $(ROOT_FLAG) notebooks/

test: setup
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

# Only the browser test of the student path (also part of `make test`); screenshots in tests/e2e/artifacts/.
e2e: setup
	$(PY) -m pytest -m e2e tests/e2e $(PYTEST_ARGS)

# nbgrader source -> release, then the public expected values the check cells compare against.
release: setup
	for a in $(ASSIGNMENTS); do $(VENV)/bin/nbgrader generate_assignment "$$a" --force --log-level=WARN || exit 1; done
	$(PY) -m autograder publish $(ASSIGNMENTS)

grade: setup
	$(PY) -m autograder grade $(SUBMISSIONS) --out $(OUT) --jobs $(JOBS)

# The class report: score histograms, pass rates, frequent misconceptions, failed gradings, and the
# integrity view: similar submissions (compared when the SUBMISSIONS folder is there) and flagged code.
report: setup
	$(PY) -m autograder report $(OUT) --out $(OUT)/report.html $(if $(wildcard $(SUBMISSIONS)),--submissions $(SUBMISSIONS))

# One class (STUDENTS students, each handing in every lesson) graded three ways: stock nbgrader autograde,
# nbgrader autograde with the course's config, the batch grader; prints each repeat's walls, then the
# medians, the speed-ups over stock and the floor (the kernel time of the graded cells alone). Then each
# solution's grading time, and the class report's similarity pass over 500 submissions.
bench: setup
	$(PY) bench/grading_throughput.py --students $(or $(STUDENTS),2) --repeats $(or $(REPEATS),3) --jobs $(JOBS)
	$(PY) bench/solution_times.py --repeats $(or $(REPEATS),3)
	$(PY) bench/similarity_pass.py --students 500

# DESIGN.md's load rule: every solution's Run All with BUSY spin loops beside it (6: a load of about 7 on
# two cores); per lesson the claims that ran and failed (with their text), the wall time and the load
# average seen. Exit 1 when a claim failed. ASSIGNMENTS="02_rebuild_vs_feed" narrows it.
bench-load: setup
	$(PY) -m bench.claims_under_load --busy $(or $(BUSY),6) --repeats $(or $(REPEATS),1) $(ASSIGNMENTS)

# Machine-made mutants of every solution, graded in one warm batch: each exercise's kill rate and the
# survivors to triage (tests/mutation/). ASSIGNMENTS="02_rebuild_vs_feed" narrows it.
mutants: setup
	$(PY) -m tests.mutation $(ASSIGNMENTS) --jobs $(JOBS)

# A zip for students: released notebooks, public checks, requirements, a Makefile with `lab`.
student-bundle: setup
	$(PY) -m autograder bundle --out dist/student-bundle.zip

clean:
	rm -rf $(VENV) .lab-workspaces results autograded feedback gradebook.db .pytest_cache build dist *.egg-info
	find . -name __pycache__ -prune -exec rm -rf {} +
