// psa-verdicts runs pod-security-admission's own checks (k8s.io/pod-security-admission/policy, the version go.mod
// pins) on every fixture of its test/testdata and prints, per fixture, which checks fail it at the fixture's level
// and version, with PSA's reason and detail. PodSecurityFixturesTest compares the native sets with these verdicts,
// so the expectation is PSA's answer, not the fixture's file name.
//
//	psa-verdicts TESTDATA_DIR > verdicts.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
	"sigs.k8s.io/yaml"
)

type failure struct {
	Check  string `json:"check"`
	Reason string `json:"reason"`
	Detail string `json:"detail"`
}

type verdict struct {
	Level   string    `json:"level"`
	Version string    `json:"version"`
	Kind    string    `json:"kind"` // pass or fail: the fixture directory
	File    string    `json:"file"` // relative to the testdata directory
	Failed  []failure `json:"failed"`
}

type namedCheck struct {
	id    policy.CheckID
	check policy.VersionedCheck
}

// checksFor mirrors policy.populate: per check the newest VersionedCheck not newer than the version; at restricted,
// the baseline checks a chosen restricted check overrides are left out. main compares the outcome with the
// evaluator's own, so a drift in this copy stops the run instead of changing the verdicts.
func checksFor(level api.Level, version api.Version) []namedCheck {
	var chosen []namedCheck
	levelOf := map[policy.CheckID]api.Level{}
	for _, c := range policy.DefaultChecks() {
		levelOf[c.ID] = c.Level
		if c.Level == api.LevelRestricted && level != api.LevelRestricted {
			continue
		}
		var pick *policy.VersionedCheck
		for i := range c.Versions {
			if !version.Older(c.Versions[i].MinimumVersion) {
				pick = &c.Versions[i]
			}
		}
		if pick != nil {
			chosen = append(chosen, namedCheck{c.ID, *pick})
		}
	}
	overridden := map[policy.CheckID]bool{}
	for _, c := range chosen {
		if levelOf[c.id] == api.LevelRestricted {
			for _, o := range c.check.OverrideCheckIDs {
				overridden[o] = true
			}
		}
	}
	var out []namedCheck
	for _, c := range chosen {
		if !overridden[c.id] {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: psa-verdicts TESTDATA_DIR")
		os.Exit(2)
	}
	root := os.Args[1]
	evaluator, err := policy.NewEvaluator(policy.DefaultChecks(), nil)
	if err != nil {
		fail(err)
	}
	var verdicts []verdict
	files, _ := filepath.Glob(filepath.Join(root, "*", "v1.*", "*", "*.yaml"))
	sort.Strings(files)
	for _, file := range files {
		rel, _ := filepath.Rel(root, file)
		parts := strings.Split(rel, string(filepath.Separator))
		level, versionDir, kind := api.Level(parts[0]), parts[1], parts[2]
		minor, err := strconv.Atoi(strings.TrimPrefix(versionDir, "v1."))
		if err != nil {
			fail(fmt.Errorf("%s: version directory %q", rel, versionDir))
		}
		version := api.MajorMinorVersion(1, minor)
		data, err := os.ReadFile(file)
		if err != nil {
			fail(err)
		}
		var pod corev1.Pod
		if err := yaml.UnmarshalStrict(data, &pod); err != nil {
			fail(fmt.Errorf("%s: %w", rel, err))
		}
		defaultVolumes(&pod)
		v := verdict{Level: string(level), Version: fmt.Sprintf("1.%d", minor), Kind: kind, File: filepath.ToSlash(rel), Failed: []failure{}}
		var reasons []string
		for _, c := range checksFor(level, version) {
			r := c.check.CheckPod(&pod.ObjectMeta, &pod.Spec)
			if !r.Allowed {
				v.Failed = append(v.Failed, failure{string(c.id), r.ForbiddenReason, r.ForbiddenDetail})
				reasons = append(reasons, r.ForbiddenReason)
			}
		}
		var own []string
		for _, r := range evaluator.EvaluatePod(api.LevelVersion{Level: level, Version: version}, &pod.ObjectMeta, &pod.Spec) {
			if !r.Allowed {
				own = append(own, r.ForbiddenReason)
			}
		}
		sort.Strings(reasons)
		sort.Strings(own)
		if strings.Join(reasons, "|") != strings.Join(own, "|") {
			fail(fmt.Errorf("%s: per-check reasons %q differ from the evaluator's %q (checksFor no longer mirrors policy.populate)", rel, reasons, own))
		}
		verdicts = append(verdicts, v)
	}
	if len(verdicts) == 0 {
		fail(fmt.Errorf("no fixtures under %s/<level>/v1.<minor>/<pass|fail>/", root))
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(map[string]any{"verdicts": verdicts}); err != nil {
		fail(err)
	}
}

// defaultVolumes applies the one API server default the fixtures rely on: a volume without a source is an emptyDir
// (pkg/apis/core/v1/defaults.go: SetDefaults_Volume). Admission, PSA's as well as a policy's, sees the defaulted pod,
// and PodSecurityFixturesTest gives the policies the same.
func defaultVolumes(pod *corev1.Pod) {
	for i := range pod.Spec.Volumes {
		if reflect.DeepEqual(pod.Spec.Volumes[i].VolumeSource, corev1.VolumeSource{}) {
			pod.Spec.Volumes[i].EmptyDir = &corev1.EmptyDirVolumeSource{}
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "psa-verdicts:", err)
	os.Exit(1)
}
