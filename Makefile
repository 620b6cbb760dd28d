# Admission Policy Operator. `make help` lists the targets.
MVN ?= mvn -B
APS ?= java -jar target/aps.jar

.DEFAULT_GOAL := help

##@ General

.PHONY: help
help: ## Show this help.
	@awk 'BEGIN {FS = ":.*##"; printf "Usage: make \033[36m<target>\033[0m\n"} /^[a-zA-Z_0-9-]+:.*?##/ { printf "  \033[36m%-16s\033[0m %s\n", $$1, $$2 } /^##@/ { printf "\n\033[1m%s\033[0m\n", substr($$0, 5) }' $(MAKEFILE_LIST)

##@ Development

.PHONY: demo
demo: build ## Build, then render the shipped samples with the CLI (no cluster needed).
	$(APS) render config/samples/

.PHONY: test
test: ## Run all tests (unit, golden, mock-server, and the ../shared suites when present).
	$(MVN) verify

##@ Build

.PHONY: build
build: ## Build the operator (target/quarkus-app) and the CLI (target/aps.jar), skipping tests.
	$(MVN) package -DskipTests
