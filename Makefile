# Readiness: the two commands that matter are `make start` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help
NPM_STAMP := node_modules/.install-stamp

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

# The lock file lists every per-platform binary (swc, buf, the resolver, PostgreSQL) it names, so a fresh clone
# installs with npm ci alone.
$(NPM_STAMP): package.json package-lock.json $(wildcard */package.json */*/package.json)
	npm ci --no-audit --no-fund
	@touch $(NPM_STAMP)

install: $(NPM_STAMP) ## Install dependencies (npm ci) when missing or stale

# The web app is built again only when its sources changed since the last build (make test, lint and images all need
# a build; one Vite build serves them).
WEB_SOURCES := $(shell find web/src web/public -type f 2>/dev/null) web/index.html web/student.html web/vite.config.mts web/package.json package-lock.json

web/dist/index.html: $(NPM_STAMP) $(WEB_SOURCES)
	npm run build --silent -w web
	@touch $@

build: install web/dist/index.html ## Compile every workspace (tsc -b) and build the web app (vite) when its sources changed
	npx tsc -b

start: build ## Run the whole product in one process with embedded defaults (http://localhost:8080)
	node deploy/all-in-one/dist/main.js

stack: build ## One process per service against PostgreSQL, RabbitMQ and Redis on localhost
	node deploy/all-in-one/dist/stack.js

test: build ## Run every test (unit, component, contract, browser, deployment) in lanes: docs/testing.md
	node tests/tools/run-lanes.mjs

# The typechecks read the workspaces' declarations (tsc -b), not the web app's Vite build, so lint does not make it.
lint: install ## Typecheck the tests too, ESLint, Prettier, buf lint, buf breaking against the previous commit, generated code (event contracts, the web's API types) up to date
	npx tsc -b
	npx tsc -p tsconfig.tests.json
	npm run typecheck --silent -w web
	npx tsc -p web/e2e/tsconfig.json
	npx eslint .
	npx prettier --check .
	cd proto && ../node_modules/.bin/buf lint
	@if git rev-parse -q --verify HEAD~1 >/dev/null && git cat-file -e HEAD~1:proto/buf.yaml 2>/dev/null; then \
	  cd proto && ../node_modules/.bin/buf breaking --against '../.git#ref=HEAD~1,subdir=proto'; \
	else echo "buf breaking: no previous commit with contracts, skipped"; fi
	cd proto && ../node_modules/.bin/buf generate && git diff --exit-code -- src/gen
	node web/scripts/api-types.mjs --check
	node deploy/tools/topology.mjs --check

images: build ## Build every service's image with podman from the build (deploy/Dockerfile; on a Debian base made here when no registry answers)
	node deploy/tools/images.mjs

chart: install ## Deployment checks only: Helm chart (lint, render, schemas, security), Skaffold, Dockerfile
	npx jest --ci --selectProjects deploy -- deploy/test

bench: build ## Gateway → auth, the admin lists at 50,000 students and 100,000 results, certificates, an idle product's statements and broker CPU, one journey's statements call by call, the Live screen with 5,000 attempts in progress and their pages' event streams, and the enrolment peak (BENCH_STUDENTS, default 5,000) against bare baselines (the bare journey of bench/bare-journey.js in the same run: its headline is product CPU per journey ÷ bare), and a slow link's page loads; writes docs/benchmarks.md (local PostgreSQL, RabbitMQ and Redis)
	node bench/run.js
	npx jest --ci --selectProjects scale --runInBand
	node bench/certificates.js
	node bench/slow-link.js
	node bench/idle.js
	node bench/journey-statements.js
	node bench/live.js
	node bench/peak.js

proto: install ## Regenerate the TypeScript of the event contracts
	cd proto && ../node_modules/.bin/buf generate

topology: install ## Rewrite what cannot read proto/src/topology.ts itself from it: Skaffold's artifacts, the Dockerfile's manifests, the chart's topology.yaml, the project references, the launcher's service modules, docs/events.md's table of publishers and consumers
	node deploy/tools/topology.mjs

api-types: build ## Regenerate the web's API types from the services' OpenAPI documents
	node web/scripts/api-types.mjs

.PHONY: help install build start stack test lint proto topology api-types images chart bench
