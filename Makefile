# Admission Policy Operator. `make help` lists the targets.
MVN ?= mvn -B
APS ?= target/aps
KUBECTL ?= kubectl
# docker or podman
CONTAINER_TOOL ?= $(shell command -v docker >/dev/null 2>&1 && echo docker || echo podman)

# The project version (pom.xml); the CSV and the image tag follow it.
VERSION ?= $(shell sed -n 's:^  <version>\(.*\)</version>$$:\1:p' pom.xml | head -1)
# The operator image: the default is the one config/manager/kustomization.yaml sets (its only home);
# `make deploy/bundle/image-build IMG=...` overrides it without editing any file.
DEFAULT_IMG := $(shell awk '/newName:/ {n=$$2} /newTag:/ {t=$$2} END {print n ":" t}' config/manager/kustomization.yaml)
IMG ?= $(DEFAULT_IMG)
BUNDLE_IMG ?= $(shell img='$(IMG)'; echo "$${img%:*}-bundle:v$(VERSION)")

.DEFAULT_GOAL := help

##@ General

.PHONY: help
help: ## Show this help.
	@awk 'BEGIN {FS = ":.*##"; printf "Usage: make \033[36m<target>\033[0m\n"} /^[a-zA-Z_0-9-]+:.*?##/ { printf "  \033[36m%-16s\033[0m %s\n", $$1, $$2 } /^##@/ { printf "\n\033[1m%s\033[0m\n", substr($$0, 5) }' $(MAKEFILE_LIST)

##@ Development

.PHONY: demo
demo: target/aps.jar ## Build, then show the CLI on the samples: render, validate (catching the unsafe one), policy tests.
	@echo "--- aps render config/samples/baseline-security.yaml: the native objects a set becomes"
	$(APS) render config/samples/baseline-security.yaml
	@echo "--- aps validate config/samples/: unsafe-fail-closed-webhook.yaml is deliberately unsafe, so this exits 1"
	@$(APS) validate config/samples/ || echo "--- aps validate exited $$? (expected: error findings in the unsafe sample)"
	@echo "--- aps explain APS201: why the first finding matters"
	@$(APS) explain APS201
	@echo "--- aps test config/samples/tests/: behaviour tests of the samples (all pass)"
	$(APS) test config/samples/tests/
	@echo "--- aps test config/samples/failing-test/: a deliberately wrong expectation, so this exits 1"
	@$(APS) test config/samples/failing-test/ || echo "--- aps test exited $$? (expected: the failing case and its diff)"

.PHONY: test
test: ## Run all tests (unit, golden, mock-server, and the ../shared suites when present).
	$(MVN) verify

.PHONY: run
run: build ## Run the operator against the current kubeconfig (install the CRD first: make install).
	java -jar target/quarkus-app/quarkus-run.jar

BENCH_SETS ?= 100
SHARED ?= ../shared

.PHONY: bench
bench: build ## Benchmarks: validate vs bare CEL compile over the corpus, then the operator on the mock server (BENCH_SETS=1000).
	java -cp target/aps.jar dev.policyset.aps.cli.bench.Benchmarks validate --warmup 3 --iterations 5 $(SHARED)/corpus
	$(MVN) test -Dtest=ReconcileBenchmark -Daps.bench.sets=$(BENCH_SETS) -Dsurefire.failIfNoSpecifiedTests=false

KUBE_VERSION ?= $(shell head -n1 test/kube/versions)
KUBE_VERSIONS ?= $(shell cat test/kube/versions)

.PHONY: kube-bins
kube-bins: ## Build kube-apiserver, kube-controller-manager, kubectl and etcd $(KUBE_VERSION) from the Go module proxy (cached in ~/.cache/aps/kube).
	test/kube/build.sh $(KUBE_VERSION)

.PHONY: test-kube
test-kube: kube-bins ## The real-API-server suite (@Tag kube) at KUBE_VERSION (default: the newest supported).
	$(MVN) verify -Dgroups=kube -Daps.kube.version=$(KUBE_VERSION) -Daps.kube.required=true -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false

.PHONY: test-kube-matrix
test-kube-matrix: ## The real-API-server suite on every supported version (test/kube/versions), building what is missing.
	@set -e; for v in $(KUBE_VERSIONS); do echo "--- Kubernetes $$v"; $(MAKE) --no-print-directory test-kube KUBE_VERSION=$$v; done

.PHONY: helm-bin
helm-bin: ## Build helm (the version test/helm/module/go.mod pins) from the Go module proxy into ~/.cache/aps/helm, for the chart tests.
	test/helm/build.sh

.PHONY: test-tools
test-tools: helm-bin ## helm, Prometheus' PromQL parser, the upstream CRDs (OpenReports, Prometheus Operator) and pod-security-admission's fixtures for the chart, alert, report and pod-security tests (~/.cache/aps).
	test/promql/build.sh
	test/crds/fetch.sh
	test/psa/fetch.sh

.PHONY: verify
verify: ## Drift checks: crds/, bundle/, config/rbac and charts/ against the build and config/; config/ renders; install.yaml builds.
	$(MVN) verify -Dtest='InstallManifestsTest,WebhookConfigurationTest,BundleTest,DockerfileTest,HelmChartTest' -Dsurefire.failIfNoSpecifiedTests=false
	$(KUBECTL) kustomize config/default > /dev/null
	$(KUBECTL) kustomize config/with-cert-manager > /dev/null
	$(KUBECTL) kustomize config/samples > /dev/null

##@ Build

.PHONY: build
build: ## Build the operator (target/quarkus-app) and the CLI (target/aps.jar, target/aps launcher), skipping tests.
	$(MVN) package -DskipTests
	@echo "alias aps=$$(pwd)/target/aps   # the CLI launcher (src/main/sh/aps) with its start-up archive target/aps.jsa"

# What the package reads (docs/rules.md is packaged for aps explain; the archive's training run reads the samples): `make demo` builds only when one of them
# is newer than the jar, instead of a minute of Maven for nothing.
BUILD_INPUTS := pom.xml docs/rules.md $(shell find src/main config/samples -type f 2>/dev/null)

target/aps.jar: $(BUILD_INPUTS)
	$(MVN) package -DskipTests

.PHONY: image-build
image-build: build ## Build the operator image IMG with docker or podman (CONTAINER_TOOL).
	$(CONTAINER_TOOL) build -f src/main/docker/Dockerfile.jvm -t $(IMG) .

# The CLI image; its tag follows the operator image's registry: ghcr.io/policyset/aps:<version> by default.
CLI_IMG ?= $(shell img='$(IMG)'; echo "$${img%/*}/aps:$(VERSION)")

.PHONY: cli-image
cli-image: ## Build the CLI image CLI_IMG (src/main/docker/Dockerfile.cli) from target/aps.jar; run `make build` first.
	@test -f target/aps.jar || { echo "target/aps.jar is missing: run make build first"; exit 2; }
	$(CONTAINER_TOOL) build -f src/main/docker/Dockerfile.cli -t $(CLI_IMG) .

.PHONY: image-push
image-push: ## Push the operator image IMG.
	$(CONTAINER_TOOL) push $(IMG)

.PHONY: bundle-build
bundle-build: ## Build the OLM bundle image BUNDLE_IMG from bundle/.
	$(CONTAINER_TOOL) build -f bundle/bundle.Dockerfile -t $(BUNDLE_IMG) bundle/

.PHONY: bundle-push
bundle-push: ## Push the OLM bundle image BUNDLE_IMG.
	$(CONTAINER_TOOL) push $(BUNDLE_IMG)

##@ Manifests

.PHONY: manifests
manifests: build ## Refresh crds/ and schemas/ from the build's generated CRD and render target/install.yaml (one-file install).
	$(MVN) -q org.codehaus.mojo:exec-maven-plugin:java@manifests
	$(MAKE) --no-print-directory install-yaml chart

.PHONY: chart
chart: ## Copy into charts/admission-policy-operator what it takes from crds/ and config/ (the CRD, the alerts, the dashboard).
	cp crds/admissionpolicysets.admission.policyset.dev-v1.yml charts/admission-policy-operator/crds/
	cp config/prometheus/prometheus_rule.yaml config/grafana/admission-policy-operator.json charts/admission-policy-operator/files/

# What install-yaml and deploy install: config/default (the validating webhook with self-managed certificates), or
# config/with-cert-manager for its certificate from cert-manager: `make deploy INSTALL=config/with-cert-manager`.
INSTALL ?= config/default

.PHONY: install-yaml
install-yaml: ## Render INSTALL (config/default; IMG sets the image) into target/install.yaml, for `kubectl apply -f`.
	@mkdir -p target/install
	@img='$(IMG)'; default='$(DEFAULT_IMG)'; \
	printf 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../../$(INSTALL)]\nimages:\n  - name: %s\n    newName: %s\n    newTag: "%s"\n' \
		"$${default%:*}" "$${img%:*}" "$${img##*:}" > target/install/kustomization.yaml
	$(KUBECTL) kustomize target/install > target/install.yaml
	@echo "wrote target/install.yaml (image $(IMG))"

.PHONY: bundle
bundle: build ## Regenerate bundle/ (OLM bundle) from QOSDK's output and config/ (IMG sets the image; DIGEST=sha256:... pins it).
	$(MVN) -q org.codehaus.mojo:exec-maven-plugin:java -Dexec.args="--image $(IMG)$(if $(DIGEST), --digest $(DIGEST))"

##@ Deployment

.PHONY: install
install: ## Install the CRD into the cluster of the current kubeconfig.
	$(KUBECTL) apply --server-side -k config/crd

.PHONY: uninstall
uninstall: ## Remove the CRD (and with it every AdmissionPolicySet) from the cluster.
	$(KUBECTL) delete --ignore-not-found -k config/crd

.PHONY: deploy
deploy: install-yaml ## Deploy the operator (INSTALL=config/default, or config/with-cert-manager; IMG) to the current cluster.
	$(KUBECTL) apply --server-side -f target/install.yaml

.PHONY: undeploy
undeploy: install-yaml ## Remove the operator, its RBAC, namespace and CRD from the cluster.
	$(KUBECTL) delete --ignore-not-found -f target/install.yaml
