# Readiness: the two commands that matter are `make start` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help
NPM_STAMP := node_modules/.install-stamp

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

$(NPM_STAMP): package.json package-lock.json $(wildcard */package.json */*/package.json)
	npm ci --no-audit --no-fund
	@touch $(NPM_STAMP)

install: $(NPM_STAMP) ## Install dependencies (npm ci) when missing or stale

build: install ## Compile every workspace (tsc -b)
	npx tsc -b

start: build ## Run the whole product in one process with embedded defaults (http://localhost:8080)
	node scripts/start.js

test: build ## Run every test (unit, component, contract, deployment)
	npx jest --ci

lint: install ## ESLint, Prettier, buf lint and buf breaking
	npx eslint .
	npx prettier --check .

.PHONY: help install build start test lint
