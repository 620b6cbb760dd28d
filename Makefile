# Admission Policy Operator. `make help` lists the targets.
MVN ?= mvn -B
APS ?= java -jar target/aps.jar
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
demo: build ## Build, then render the shipped samples with the CLI (no cluster needed).
	$(APS) render config/samples/

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
	$(APS) bench --warmup 3 --iterations 5 $(SHARED)/corpus
	$(MVN) test -Dtest=ReconcileBenchmark -Daps.bench.sets=$(BENCH_SETS) -Dsurefire.failIfNoSpecifiedTests=false

.PHONY: test-apiserver
test-apiserver: ## Opt-in real-cluster suite (SSA field ownership); KUBECONFIG must point at a disposable cluster.
	$(MVN) test -Dtest=FieldOwnershipApiServerTest -Daps.apiserver=true -Dsurefire.failIfNoSpecifiedTests=false

.PHONY: verify
verify: ## Drift checks: crds/, bundle/ and config/rbac against the build; config/ renders; install.yaml builds.
	$(MVN) verify -Dtest='InstallManifestsTest,BundleTest,DockerfileTest' -Dsurefire.failIfNoSpecifiedTests=false
	$(KUBECTL) kustomize config/default > /dev/null
	$(KUBECTL) kustomize config/samples > /dev/null

##@ Build

.PHONY: build
build: ## Build the operator (target/quarkus-app) and the CLI (target/aps.jar), skipping tests.
	$(MVN) package -DskipTests

.PHONY: image-build
image-build: build ## Build the operator image IMG with docker or podman (CONTAINER_TOOL).
	$(CONTAINER_TOOL) build -f src/main/docker/Dockerfile.jvm -t $(IMG) .

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
manifests: build ## Refresh crds/ from the build's generated CRD and render target/install.yaml (one-file install).
	cp target/kubernetes/admissionpolicysets.admission.policyset.dev-v1.yml crds/
	$(MAKE) --no-print-directory install-yaml

.PHONY: install-yaml
install-yaml: ## Render config/default (with IMG) into target/install.yaml, for `kubectl apply -f`.
	@mkdir -p target/install
	@img='$(IMG)'; default='$(DEFAULT_IMG)'; \
	printf 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../../config/default]\nimages:\n  - name: %s\n    newName: %s\n    newTag: "%s"\n' \
		"$${default%:*}" "$${img%:*}" "$${img##*:}" > target/install/kustomization.yaml
	$(KUBECTL) kustomize target/install > target/install.yaml
	@echo "wrote target/install.yaml (image $(IMG))"

.PHONY: bundle
bundle: build ## Regenerate bundle/ (OLM bundle) from QOSDK's output and config/ (IMG sets the image).
	$(MVN) -q org.codehaus.mojo:exec-maven-plugin:java -Dexec.args="--image $(IMG)"

##@ Deployment

.PHONY: install
install: ## Install the CRD into the cluster of the current kubeconfig.
	$(KUBECTL) apply --server-side -k config/crd

.PHONY: uninstall
uninstall: ## Remove the CRD (and with it every AdmissionPolicySet) from the cluster.
	$(KUBECTL) delete --ignore-not-found -k config/crd

.PHONY: deploy
deploy: install-yaml ## Deploy the operator (config/default with IMG) to the cluster of the current kubeconfig.
	$(KUBECTL) apply --server-side -f target/install.yaml

.PHONY: undeploy
undeploy: install-yaml ## Remove the operator, its RBAC, namespace and CRD from the cluster.
	$(KUBECTL) delete --ignore-not-found -f target/install.yaml
