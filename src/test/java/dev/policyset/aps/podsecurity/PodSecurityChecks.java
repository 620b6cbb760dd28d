package dev.policyset.aps.podsecurity;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * The Pod Security Standards checks of {@code k8s.io/pod-security-admission/policy} ({@code check_*.go}, v0.37.2) as
 * CEL: one ValidatingAdmissionPolicy body per check and Kubernetes minor version. Each check keeps PSA's ID, level,
 * versions ({@code VersionedCheck.MinimumVersion}) and overrides ({@code OverrideCheckIDs}: a restricted check that
 * replaces a baseline one), and its message is PSA's {@code "<ForbiddenReason> (<ForbiddenDetail>)"}.
 *
 * <p>Messages: PSA lists values as sorted sets ({@code sets.String.List()}). From Kubernetes 1.35 the CEL environment
 * of new expressions (compatibility version 1.34) has the lists extension's {@code distinct()} and {@code sort()}, so
 * the messages are PSA's to the character; at 1.34 values are listed in container order, duplicates kept, and the
 * verdicts are the same.
 */
final class PodSecurityChecks {
    static final String BASELINE = "baseline";
    static final String RESTRICTED = "restricted";

    /** A variable or a validation of a policy body. */
    record Variable(String name, String expression) {}

    /** What one check is at one version: its variables, its one validation and its message. */
    record Body(List<Variable> variables, String expression, String messageExpression) {}

    /**
     * @param id        PSA's check ID ({@code hostNamespaces})
     * @param overrides the baseline check this restricted check replaces at restricted, from {@code overridesFrom}
     * @param body      the body at a minor version, or empty when the check does not exist there
     */
    record Check(String id, String level, Optional<String> overrides, int overridesFrom, IntFunction<Optional<Body>> body) {
        Optional<Body> at(int minor) {
            return body.apply(minor);
        }

        /** The policy name: {@code pss-<level of the set>-<check ID in kebab case>}. */
        String policyName(String setLevel) {
            return "pss-" + setLevel + "-" + kebab(id);
        }
    }

    private PodSecurityChecks() {}

    /** The checks of a level at a minor version, in PSA's order (baseline checks first, each group sorted by ID). */
    static List<Check> of(String level, int minor) {
        List<Check> baseline = new ArrayList<>(baseline());
        List<Check> restricted = level.equals(RESTRICTED) ? restricted() : List.of();
        for (Check r : restricted) {
            if (r.overrides().isPresent() && minor >= r.overridesFrom() && r.at(minor).isPresent()) {
                baseline.removeIf(b -> b.id().equals(r.overrides().get()));
            }
        }
        List<Check> out = new ArrayList<>();
        baseline.stream().filter(c -> c.at(minor).isPresent()).sorted(java.util.Comparator.comparing(Check::id)).forEach(out::add);
        restricted.stream().filter(c -> c.at(minor).isPresent()).sorted(java.util.Comparator.comparing(Check::id)).forEach(out::add);
        return out;
    }

    static List<Check> baseline() {
        return List.of(
                check("appArmorProfile", BASELINE, m -> appArmorProfile(m)),
                check("capabilities_baseline", BASELINE, m -> capabilitiesBaseline(m)),
                check("hostNamespaces", BASELINE, m -> hostNamespaces()),
                check("hostPathVolumes", BASELINE, m -> hostPathVolumes()),
                check("hostPorts", BASELINE, m -> hostPorts(m)),
                check("hostProbesAndHostLifecycle", BASELINE, m -> m >= 34 ? hostProbesAndHostLifecycle(m) : null),
                check("privileged", BASELINE, m -> privileged()),
                check("procMount", BASELINE, m -> procMount(m, m >= 35)),
                check("seLinuxOptions", BASELINE, m -> seLinuxOptions(m)),
                check("seccompProfile_baseline", BASELINE, m -> seccompBaseline(m)),
                check("sysctls", BASELINE, m -> sysctls(m)),
                check("windowsHostProcess", BASELINE, m -> windowsHostProcess()));
    }

    static List<Check> restricted() {
        return List.of(
                check("allowPrivilegeEscalation", RESTRICTED, m -> allowPrivilegeEscalation()),
                new Check("capabilities_restricted", RESTRICTED, Optional.of("capabilities_baseline"), 22,
                        m -> Optional.of(capabilitiesRestricted(m))),
                new Check("procMount_restricted", RESTRICTED, Optional.of("procMount"), 35,
                        m -> Optional.ofNullable(m >= 35 ? procMount(m, false) : null)),
                new Check("restrictedVolumes", RESTRICTED, Optional.of("hostPathVolumes"), 0,
                        m -> Optional.of(restrictedVolumes(m))),
                check("runAsNonRoot", RESTRICTED, m -> runAsNonRoot(m >= 35)),
                check("runAsUser", RESTRICTED, m -> runAsUser(m >= 35)),
                new Check("seccompProfile_restricted", RESTRICTED, Optional.of("seccompProfile_baseline"), 19,
                        m -> Optional.of(seccompRestricted(m))));
    }

    private static Check check(String id, String level, IntFunction<Body> body) {
        return new Check(id, level, Optional.empty(), 0, m -> Optional.ofNullable(body.apply(m)));
    }

    static String kebab(String id) {
        StringBuilder out = new StringBuilder();
        for (char c : id.toCharArray()) {
            if (Character.isUpperCase(c)) {
                out.append('-').append(Character.toLowerCase(c));
            } else {
                out.append(c == '_' ? '-' : c);
            }
        }
        return out.toString();
    }

    // --- CEL helpers -------------------------------------------------------------------------------------------

    /** PSA's {@code visitContainers}: init containers, containers, ephemeral containers, in that order. */
    static final Variable CONTAINERS = new Variable("containers", """
            object.spec.?initContainers.orValue([]) + object.spec.?containers.orValue([]) +
            object.spec.?ephemeralContainers.orValue([])""");

    /** Lists extension v2 ({@code distinct}, {@code sort}, {@code flatten}) in new expressions from 1.35. */
    private static boolean sorted(int minor) {
        return minor >= 35;
    }

    /** {@code pluralize(singular, plural, size(list))}. */
    private static String plural(String list, String singular, String plural) {
        return "(size(" + list + ") == 1 ? '" + singular + "' : '" + plural + "')";
    }

    /** {@code joinQuote(list)}: {@code "a", "b"}. */
    private static String joinQuote(String list) {
        return "'\"' + (" + list + ").join('\", \"') + '\"'";
    }

    /** {@code container "a"} / {@code containers "a", "b"} for a list of names. */
    private static String containersPhrase(String names) {
        return plural(names, "container", "containers") + " + ' ' + " + joinQuote(names);
    }

    /** A sorted set of strings as PSA lists it (from 1.35; before, as the list is). */
    private static String set(String list, int minor) {
        return sorted(minor) ? "(" + list + ").distinct().sort()" : list;
    }

    /** A list of string lists as one set (from 1.35; before, concatenated with map/join, see {@link #setText}). */
    private static String flatSet(String lists, int minor) {
        return sorted(minor) ? "(" + lists + ").flatten().distinct().sort()" : null;
    }

    /** The text of a flattened set, joined with {@code separator} and each value wrapped in {@code quote}. */
    private static String setText(String lists, String separator, String quote, int minor) {
        if (sorted(minor)) {
            return "'" + quote + "' + " + flatSet(lists, minor) + ".join('" + quote + separator + quote + "') + '" + quote + "'";
        }
        return "'" + quote + "' + (" + lists + ").map(l, l.join('" + quote + separator + quote + "')).join('" + quote
                + separator + quote + "') + '" + quote + "'";
    }

    /** The number of values in a flattened set (before 1.35: with duplicates). */
    private static String setSize(String lists, int minor) {
        return sorted(minor) ? "size(" + flatSet(lists, minor) + ")" : "(" + lists + ").map(l, size(l)).sum()";
    }

    private static String windowsExempt() {
        return "object.spec.?os.?name.orValue('') == 'windows'";
    }

    private static String userNamespaceExempt() {
        return "object.spec.?hostUsers.orValue(true) == false";
    }

    private static List<Variable> vars(Variable... v) {
        return List.of(v);
    }

    // --- baseline --------------------------------------------------------------------------------------------

    private static Body hostNamespaces() {
        return new Body(vars(new Variable("hostNamespaces", """
                (object.spec.?hostNetwork.orValue(false) ? ['hostNetwork=true'] : []) +
                (object.spec.?hostPID.orValue(false) ? ['hostPID=true'] : []) +
                (object.spec.?hostIPC.orValue(false) ? ['hostIPC=true'] : [])""")),
                "size(variables.hostNamespaces) == 0",
                "'host namespaces (' + variables.hostNamespaces.join(', ') + ')'");
    }

    private static Body privileged() {
        return new Body(vars(CONTAINERS, new Variable("bad", """
                variables.containers.filter(c, c.?securityContext.?privileged.orValue(false)).map(c, c.name)""")),
                "size(variables.bad) == 0",
                "'privileged (' + " + containersPhrase("variables.bad")
                        + " + ' must not set securityContext.privileged=true)'");
    }

    static final List<String> DEFAULT_CAPABILITIES = List.of("AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID",
            "KILL", "MKNOD", "NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT");

    private static Body capabilitiesBaseline(int minor) {
        String allowed = "['" + String.join("', '", DEFAULT_CAPABILITIES) + "']";
        return new Body(vars(CONTAINERS,
                new Variable("bad", """
                        variables.containers.filter(c,
                          c.?securityContext.?capabilities.?add.orValue([]).exists(a, !(a in %s)))""".formatted(allowed)),
                new Variable("added", """
                        variables.bad.map(c,
                          c.?securityContext.?capabilities.?add.orValue([]).filter(a, !(a in %s)))""".formatted(allowed))),
                "size(variables.bad) == 0",
                "'non-default capabilities (' + " + containersPhrase("variables.bad.map(c, c.name)") + " + ' must not include ' + "
                        + setText("variables.added", ", ", "\"", minor) + " + ' in securityContext.capabilities.add)'");
    }

    private static Body hostPathVolumes() {
        return new Body(vars(new Variable("bad", """
                object.spec.?volumes.orValue([]).filter(v, has(v.hostPath)).map(v, v.name)""")),
                "size(variables.bad) == 0",
                "'hostPath volumes (' + " + plural("variables.bad", "volume", "volumes") + " + ' ' + "
                        + joinQuote("variables.bad") + " + ')'");
    }

    private static Body hostPorts(int minor) {
        return new Body(vars(CONTAINERS,
                new Variable("bad", """
                        variables.containers.filter(c, c.?ports.orValue([]).exists(p, p.?hostPort.orValue(0) != 0))"""),
                new Variable("ports", """
                        variables.bad.map(c,
                          c.?ports.orValue([]).filter(p, p.?hostPort.orValue(0) != 0).map(p, string(p.hostPort)))""")),
                "size(variables.bad) == 0",
                "'hostPort (' + " + containersPhrase("variables.bad.map(c, c.name)") + " + ' ' + "
                        + plural("variables.bad", "uses", "use") + " + ' ' + (" + setSize("variables.ports", minor)
                        + " == 1 ? 'hostPort' : 'hostPorts') + ' ' + " + setText("variables.ports", ", ", "", minor) + " + ')'");
    }

    private static Body hostProbesAndHostLifecycle(int minor) {
        String hosts = """
                [c.?livenessProbe.?httpGet.?host.orValue(''), c.?livenessProbe.?tcpSocket.?host.orValue(''),
                 c.?readinessProbe.?httpGet.?host.orValue(''), c.?readinessProbe.?tcpSocket.?host.orValue(''),
                 c.?startupProbe.?httpGet.?host.orValue(''), c.?startupProbe.?tcpSocket.?host.orValue(''),
                 c.?lifecycle.?postStart.?httpGet.?host.orValue(''), c.?lifecycle.?postStart.?tcpSocket.?host.orValue(''),
                 c.?lifecycle.?preStop.?httpGet.?host.orValue(''), c.?lifecycle.?preStop.?tcpSocket.?host.orValue('')]""";
        return new Body(vars(CONTAINERS,
                new Variable("bad", "variables.containers.filter(c, " + hosts + ".exists(h, h != ''))"),
                new Variable("hosts", "variables.bad.map(c, " + hosts + ".filter(h, h != ''))")),
                "size(variables.bad) == 0",
                "'probe or lifecycle host (' + " + containersPhrase(set("variables.bad.map(c, c.name)", minor)) + " + ' ' + "
                        + plural(set("variables.bad.map(c, c.name)", minor), "uses", "use") + " + ' ' + ("
                        + setSize("variables.hosts", minor) + " == 1 ? 'probe or lifecycle host' : 'probe or lifecycle hosts') + ' ' + "
                        + setText("variables.hosts", ", ", "\"", minor) + " + ')'");
    }

    private static Body appArmorProfile(int minor) {
        return new Body(vars(CONTAINERS,
                new Variable("podType", "object.spec.?securityContext.?appArmorProfile.?type"),
                new Variable("podBad", """
                        object.spec.?securityContext.?appArmorProfile.hasValue() &&
                        !(variables.podType.orValue('') in ['RuntimeDefault', 'Localhost'])"""),
                new Variable("badContainers", """
                        variables.containers.filter(c, c.?securityContext.?appArmorProfile.hasValue() &&
                          !(c.?securityContext.?appArmorProfile.?type.orValue('') in ['RuntimeDefault', 'Localhost']))"""),
                // a pod always has metadata, a pod template (autogen rewrites object.metadata to it) may not
                new Variable("annotationMap", "has(object.metadata) ? object.metadata.?annotations.orValue({}) : {}"),
                new Variable("annotations", """
                        variables.annotationMap.filter(k,
                          k.startsWith('container.apparmor.security.beta.kubernetes.io/') &&
                          !(variables.annotationMap[k] == '' || variables.annotationMap[k] == 'runtime/default' ||
                            variables.annotationMap[k].startsWith('localhost/')))"""),
                new Variable("values", set("(variables.podBad ? [variables.podType.orValue('')] : []) + "
                        + "variables.badContainers.map(c, c.?securityContext.?appArmorProfile.?type.orValue(''))", minor) + " + "
                        + set("variables.annotations.map(k, k + '=\"' + variables.annotationMap[k] + '\"')", minor)),
                new Variable("setters", "(variables.podBad ? ['pod'] : []) + (size(variables.badContainers) > 0 ? ["
                        + containersPhrase("variables.badContainers.map(c, c.name)") + "] : []) + "
                        + "(size(variables.annotations) > 0 ? [" + plural("variables.annotations", "annotation", "annotations")
                        + "] : [])")),
                "size(variables.setters) == 0",
                "(size(variables.values) == 1 ? 'forbidden AppArmor profile' : 'forbidden AppArmor profiles') + ' (' + "
                        + "variables.setters.join(' and ') + ' must not set AppArmor profile type to ' + "
                        + joinQuote("variables.values") + " + ')'");
    }

    private static Body procMount(int minor, boolean userNamespaceRelaxed) {
        return new Body(vars(CONTAINERS,
                new Variable("bad", """
                        variables.containers.filter(c, c.?securityContext.?procMount.orValue('Default') != 'Default')""")),
                (userNamespaceRelaxed ? userNamespaceExempt() + " || " : "") + "size(variables.bad) == 0",
                "'procMount (' + " + containersPhrase("variables.bad.map(c, c.name)")
                        + " + ' must not set securityContext.procMount to ' + "
                        + joinQuote(set("variables.bad.map(c, c.securityContext.procMount)", minor)) + " + ')'");
    }

    private static Body seccompBaseline(int minor) {
        return new Body(vars(CONTAINERS,
                new Variable("podBad", """
                        object.spec.?securityContext.?seccompProfile.hasValue() &&
                        !(object.spec.?securityContext.?seccompProfile.?type.orValue('') in ['RuntimeDefault', 'Localhost'])"""),
                new Variable("badContainers", """
                        variables.containers.filter(c, c.?securityContext.?seccompProfile.hasValue() &&
                          !(c.?securityContext.?seccompProfile.?type.orValue('') in ['RuntimeDefault', 'Localhost']))"""),
                new Variable("setters", "(variables.podBad ? ['pod'] : []) + (size(variables.badContainers) > 0 ? ["
                        + containersPhrase("variables.badContainers.map(c, c.name)") + "] : [])")),
                "size(variables.setters) == 0",
                "'seccompProfile (' + variables.setters.join(' and ') + ' must not set securityContext.seccompProfile.type to ' + "
                        + joinQuote(set("(variables.podBad ? [object.spec.?securityContext.?seccompProfile.?type.orValue('')] : []) + "
                        + "variables.badContainers.map(c, c.?securityContext.?seccompProfile.?type.orValue(''))", minor)) + " + ')'");
    }

    private static Body seLinuxOptions(int minor) {
        String allowed = minor >= 31
                ? "['', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t']"
                : "['', 'container_t', 'container_init_t', 'container_kvm_t']";
        String bad = "(!(%1$s.?type.orValue('') in " + allowed + ") || %1$s.?user.orValue('') != '' || %1$s.?role.orValue('') != '')";
        return new Body(vars(CONTAINERS,
                new Variable("podOptions", "object.spec.?securityContext.?seLinuxOptions"),
                new Variable("podBad", "variables.podOptions.hasValue() && "
                        + bad.formatted("variables.podOptions.value()")),
                new Variable("badContainers", "variables.containers.filter(c, c.?securityContext.?seLinuxOptions.hasValue() && "
                        + bad.formatted("c.securityContext.seLinuxOptions") + ")"),
                new Variable("badOptions", "(variables.podBad ? [variables.podOptions.value()] : []) + "
                        + "variables.badContainers.map(c, c.securityContext.seLinuxOptions)"),
                new Variable("badTypes", set("variables.badOptions.map(o, o.?type.orValue(''))"
                        + ".filter(t, !(t in " + allowed + "))", minor)),
                new Variable("setters", "(variables.podBad ? ['pod'] : []) + (size(variables.badContainers) > 0 ? ["
                        + containersPhrase("variables.badContainers.map(c, c.name)") + "] : [])"),
                new Variable("problems", "(size(variables.badTypes) > 0 ? [" + plural("variables.badTypes", "type", "types")
                        + " + ' ' + " + joinQuote("variables.badTypes") + "] : []) + "
                        + "(variables.badOptions.exists(o, o.?user.orValue('') != '') ? ['user may not be set'] : []) + "
                        + "(variables.badOptions.exists(o, o.?role.orValue('') != '') ? ['role may not be set'] : [])")),
                "size(variables.setters) == 0",
                "'seLinuxOptions (' + variables.setters.join(' and ') + ' set forbidden securityContext.seLinuxOptions: ' + "
                        + "variables.problems.join('; ') + ')'");
    }

    /** {@code check_sysctls.go}: the allowed ("safe") sysctls by the version that allowed them. */
    static List<String> allowedSysctls(int minor) {
        List<String> allowed = new ArrayList<>(List.of("kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range",
                "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_unprivileged_port_start"));
        if (minor >= 27) {
            allowed.add("net.ipv4.ip_local_reserved_ports");
        }
        if (minor >= 29) {
            allowed.addAll(List.of("net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
                    "net.ipv4.tcp_keepalive_probes"));
        }
        if (minor >= 32) {
            allowed.addAll(List.of("net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem"));
        }
        if (minor >= 37) {
            allowed.addAll(List.of("net.ipv4.tcp_slow_start_after_idle", "net.ipv4.tcp_notsent_lowat"));
        }
        return allowed;
    }

    private static Body sysctls(int minor) {
        return new Body(vars(
                new Variable("bad", "object.spec.?securityContext.?sysctls.orValue([]).map(s, s.?name.orValue(''))"
                        + ".filter(n, !(n in ['" + String.join("', '", allowedSysctls(minor)) + "']))")),
                "size(variables.bad) == 0",
                "'forbidden sysctls (' + variables.bad.join(', ') + ')'");
    }

    private static Body windowsHostProcess() {
        return new Body(vars(CONTAINERS,
                new Variable("podBad", "object.spec.?securityContext.?windowsOptions.?hostProcess.orValue(false)"),
                new Variable("bad", """
                        variables.containers.filter(c, c.?securityContext.?windowsOptions.?hostProcess.orValue(false))
                          .map(c, c.name)"""),
                new Variable("setters", "(variables.podBad ? ['pod'] : []) + (size(variables.bad) > 0 ? ["
                        + containersPhrase("variables.bad") + "] : [])")),
                "size(variables.setters) == 0",
                "'hostProcess (' + variables.setters.join(' and ') + ' must not set securityContext.windowsOptions.hostProcess=true)'");
    }

    // --- restricted ------------------------------------------------------------------------------------------

    private static Body allowPrivilegeEscalation() {
        return new Body(vars(CONTAINERS, new Variable("bad", """
                variables.containers.filter(c, c.?securityContext.?allowPrivilegeEscalation.orValue(true)).map(c, c.name)""")),
                windowsExempt() + " || size(variables.bad) == 0",
                "'allowPrivilegeEscalation != false (' + " + containersPhrase("variables.bad")
                        + " + ' must set securityContext.allowPrivilegeEscalation=false)'");
    }

    private static Body capabilitiesRestricted(int minor) {
        return new Body(vars(CONTAINERS,
                new Variable("missingDropAll", """
                        variables.containers.filter(c,
                          !c.?securityContext.?capabilities.?drop.orValue([]).exists(d, d == 'ALL')).map(c, c.name)"""),
                new Variable("adding", """
                        variables.containers.filter(c,
                          c.?securityContext.?capabilities.?add.orValue([]).exists(a, a != 'NET_BIND_SERVICE'))"""),
                new Variable("added", """
                        variables.adding.map(c,
                          c.?securityContext.?capabilities.?add.orValue([]).filter(a, a != 'NET_BIND_SERVICE'))"""),
                new Variable("details", "(size(variables.missingDropAll) > 0 ? [" + containersPhrase("variables.missingDropAll")
                        + " + ' must set securityContext.capabilities.drop=[\"ALL\"]'] : []) + (size(variables.adding) > 0 ? ["
                        + containersPhrase("variables.adding.map(c, c.name)") + " + ' must not include ' + "
                        + setText("variables.added", ", ", "\"", minor) + " + ' in securityContext.capabilities.add'] : [])")),
                windowsExempt() + " || size(variables.details) == 0",
                "'unrestricted capabilities (' + variables.details.join('; ') + ')'");
    }

    /** {@code check_restrictedVolumes.go}: the volume sources PSA names, in its switch order. */
    static final List<String> RESTRICTED_VOLUME_TYPES = List.of("hostPath", "gcePersistentDisk", "awsElasticBlockStore",
            "gitRepo", "nfs", "iscsi", "glusterfs", "rbd", "flexVolume", "cinder", "cephfs", "flocker", "fc", "azureFile",
            "vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk", "portworxVolume", "scaleIO", "storageos");

    private static Body restrictedVolumes(int minor) {
        List<String> allowed = new ArrayList<>(List.of("configMap", "csi", "downwardAPI", "emptyDir", "ephemeral"));
        if (minor >= 31) {
            allowed.add("image"); // the image volume source exists in the Pod schema from 1.31
        }
        allowed.addAll(List.of("persistentVolumeClaim", "projected", "secret"));
        StringBuilder type = new StringBuilder();
        for (String t : RESTRICTED_VOLUME_TYPES) {
            type.append("has(v.").append(t).append(") ? '").append(t).append("' : ");
        }
        type.append("'unknown'");
        return new Body(vars(
                new Variable("bad", "object.spec.?volumes.orValue([]).filter(v, !("
                        + String.join(" || ", allowed.stream().map(a -> "has(v." + a + ")").toList()) + "))"),
                new Variable("types", set("variables.bad.map(v, " + type + ")", minor))),
                "size(variables.bad) == 0",
                "'restricted volume types (' + " + plural("variables.bad", "volume", "volumes") + " + ' ' + "
                        + joinQuote("variables.bad.map(v, v.name)") + " + ' ' + " + plural("variables.bad", "uses", "use")
                        + " + ' ' + " + plural("variables.types", "restricted volume type", "restricted volume types") + " + ' ' + "
                        + joinQuote("variables.types") + " + ')'");
    }

    private static Body runAsNonRoot(boolean userNamespaceRelaxed) {
        return new Body(vars(CONTAINERS,
                new Variable("podSetting", "object.spec.?securityContext.?runAsNonRoot"),
                new Variable("podBad", "variables.podSetting.orValue(true) == false"),
                new Variable("explicitlyBad", """
                        variables.containers.filter(c, c.?securityContext.?runAsNonRoot.orValue(true) == false).map(c, c.name)"""),
                new Variable("implicitlyBad", """
                        variables.containers.filter(c, !c.?securityContext.?runAsNonRoot.hasValue() &&
                          !variables.podSetting.orValue(false)).map(c, c.name)"""),
                new Variable("setters", "(variables.podBad ? ['pod'] : []) + (size(variables.explicitlyBad) > 0 ? ["
                        + containersPhrase("variables.explicitlyBad") + "] : [])")),
                (userNamespaceRelaxed ? userNamespaceExempt() + " || " : "")
                        + "(size(variables.setters) == 0 && size(variables.implicitlyBad) == 0)",
                "'runAsNonRoot != true (' + (size(variables.setters) > 0 ? variables.setters.join(' and ') + "
                        + "' must not set securityContext.runAsNonRoot=false' : 'pod or ' + " + containersPhrase("variables.implicitlyBad")
                        + " + ' must set securityContext.runAsNonRoot=true') + ')'");
    }

    private static Body runAsUser(boolean userNamespaceRelaxed) {
        return new Body(vars(CONTAINERS,
                new Variable("podBad", "object.spec.?securityContext.?runAsUser.orValue(1) == 0"),
                new Variable("bad", """
                        variables.containers.filter(c, c.?securityContext.?runAsUser.orValue(1) == 0).map(c, c.name)"""),
                new Variable("setters", "(variables.podBad ? ['pod'] : []) + (size(variables.bad) > 0 ? ["
                        + containersPhrase("variables.bad") + "] : [])")),
                (userNamespaceRelaxed ? userNamespaceExempt() + " || " : "") + "size(variables.setters) == 0",
                "'runAsUser=0 (' + variables.setters.join(' and ') + ' must not set runAsUser=0)'");
    }

    private static Body seccompRestricted(int minor) {
        return new Body(vars(CONTAINERS,
                new Variable("podSet", "object.spec.?securityContext.?seccompProfile.hasValue()"),
                new Variable("podValid", """
                        object.spec.?securityContext.?seccompProfile.?type.orValue('') in ['RuntimeDefault', 'Localhost']"""),
                new Variable("explicitlyBad", """
                        variables.containers.filter(c, c.?securityContext.?seccompProfile.hasValue() &&
                          !(c.?securityContext.?seccompProfile.?type.orValue('') in ['RuntimeDefault', 'Localhost']))"""),
                new Variable("implicitlyBad", """
                        variables.containers.filter(c, !c.?securityContext.?seccompProfile.hasValue() &&
                          !(variables.podSet && variables.podValid)).map(c, c.name)"""),
                new Variable("setters", "(variables.podSet && !variables.podValid ? ['pod'] : []) + "
                        + "(size(variables.explicitlyBad) > 0 ? [" + containersPhrase("variables.explicitlyBad.map(c, c.name)")
                        + "] : [])")),
                windowsExempt() + " || (size(variables.setters) == 0 && size(variables.implicitlyBad) == 0)",
                "'seccompProfile (' + (size(variables.setters) > 0 ? variables.setters.join(' and ') + "
                        + "' must not set securityContext.seccompProfile.type to ' + "
                        + joinQuote(set("(variables.podSet && !variables.podValid ? "
                        + "[object.spec.?securityContext.?seccompProfile.?type.orValue('')] : []) + "
                        + "variables.explicitlyBad.map(c, c.?securityContext.?seccompProfile.?type.orValue(''))", minor))
                        + " : 'pod or ' + " + containersPhrase("variables.implicitlyBad")
                        + " + ' must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\"') + ')'");
    }
}
