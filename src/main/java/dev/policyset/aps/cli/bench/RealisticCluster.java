package dev.policyset.aps.cli.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.policyset.aps.core.yaml.DocumentParseException;
import dev.policyset.aps.core.yaml.Yaml;

import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * A generated cluster whose objects look like what the API server returns for them (metadata with uid,
 * resourceVersion, ownerReferences and managedFields; pods with two containers, probes, env, volumes, tolerations
 * and a status), in the proportions of a cluster of Deployments: per ten objects five Pods, two ReplicaSets (the
 * current one and an old one scaled to zero), one Deployment, one Service and one ConfigMap; one Namespace per 300
 * objects (at least 50), first, and the {@code config/limits} ConfigMap the param policies read.
 *
 * <p>Objects are made when read ({@link #get}) and not kept, as a paged list hands them over a page at a time: 60,000
 * objects of this size as JSON trees would take about 2 GiB of heap (see {@link #sampleBytes}), far over the 512
 * MiB an impact scan is allowed. One in ten apps violates the benchmark policies (no team label, an image from
 * docker.io, privilege escalation, host network, too many replicas).
 */
final class RealisticCluster extends AbstractList<ObjectNode> implements RandomAccess {
    private final int size;
    private final int namespaces;
    private final ObjectNode pod;
    private final ObjectNode replicaSet;
    private final ObjectNode deployment;
    private final ObjectNode service;
    private final ObjectNode configMap;

    RealisticCluster(int size) {
        this.size = size;
        this.namespaces = Math.max(50, size / 300);
        this.pod = parse(POD);
        this.replicaSet = parse(REPLICA_SET);
        this.deployment = parse(DEPLOYMENT);
        this.service = parse(SERVICE);
        this.configMap = parse(CONFIG_MAP);
    }

    int namespaces() {
        return namespaces;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public ObjectNode get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(index);
        }
        if (index < namespaces) {
            ObjectNode ns = parse("apiVersion: v1\nkind: Namespace\nmetadata: {name: ns-" + index
                    + ", uid: " + uid(index) + ", resourceVersion: '" + (1000 + index) + "', creationTimestamp: '2026-11-01T10:00:00Z'}\n"
                    + "spec: {finalizers: [kubernetes]}\nstatus: {phase: Active}\n");
            ObjectNode labels = ((ObjectNode) ns.get("metadata")).putObject("labels");
            labels.put("kubernetes.io/metadata.name", "ns-" + index);
            labels.put("environment", index % 2 == 0 ? "production" : "dev");
            return ns;
        }
        if (index == namespaces) {
            ObjectNode params = configMap.deepCopy();
            meta(params, "config", "limits", index);
            ((ObjectNode) params.get("data")).put("maxReplicas", "5");
            return params;
        }
        int i = index - namespaces - 1;
        int app = i / 10;
        int slot = i % 10;
        boolean bad = app % 10 == 0;
        String ns = "ns-" + (app % namespaces);
        String name = "app-" + app;
        ObjectNode o;
        switch (slot) {
            case 0 -> {
                o = deployment.deepCopy();
                meta(o, ns, name, index);
                ObjectNode spec = (ObjectNode) o.get("spec");
                spec.put("replicas", bad ? 9 : 5);
                ((ObjectNode) spec.get("selector").get("matchLabels")).put("app", name);
                ObjectNode template = (ObjectNode) spec.get("template");
                ((ObjectNode) template.get("metadata").get("labels")).put("app", name);
                containers((ArrayNode) template.get("spec").get("containers"), name, bad);
            }
            case 1, 2 -> {
                o = replicaSet.deepCopy();
                String rs = name + "-" + (slot == 1 ? "7d9f8c6b5" : "5c4b8d7f6");
                meta(o, ns, rs, index);
                owner(o, "apps/v1", "Deployment", name);
                ObjectNode spec = (ObjectNode) o.get("spec");
                spec.put("replicas", slot == 1 ? 5 : 0);
                ((ObjectNode) spec.get("template").get("metadata").get("labels")).put("app", name);
                containers((ArrayNode) spec.get("template").get("spec").get("containers"), name, bad);
            }
            case 3 -> {
                o = service.deepCopy();
                meta(o, ns, name, index);
                ((ObjectNode) o.get("spec").get("selector")).put("app", name);
                ((ObjectNode) o.get("spec")).put("clusterIP", "10.96." + (app / 250 % 250) + "." + (app % 250));
            }
            case 4 -> {
                o = configMap.deepCopy();
                meta(o, ns, name + "-config", index);
                ((ObjectNode) o.get("data")).put("APP_NAME", name);
            }
            default -> {
                o = pod.deepCopy();
                meta(o, ns, name + "-7d9f8c6b5-" + Integer.toString(36 * 36 * 36 + index * 7919 % 46656, 36), index);
                owner(o, "apps/v1", "ReplicaSet", name + "-7d9f8c6b5");
                ObjectNode spec = (ObjectNode) o.get("spec");
                containers((ArrayNode) spec.get("containers"), name, bad);
                spec.put("nodeName", "node-" + (index % 200));
                if (bad) {
                    spec.put("hostNetwork", true);
                }
                ((ObjectNode) o.get("status")).put("podIP", "10.244." + (index / 250 % 250) + "." + (index % 250));
            }
        }
        ObjectNode labels = (ObjectNode) o.get("metadata").get("labels");
        labels.put("app", name);
        labels.put("app.kubernetes.io/name", name);
        if (!bad) {
            labels.put("team", "team-" + (app % 7));
        }
        return o;
    }

    /** Bytes of heap one object of each kind retains as a JSON tree, averaged over the proportions. */
    long sampleBytes(java.util.function.LongSupplier retained) {
        ObjectNode[] keep = new ObjectNode[1000];
        long before = retained.getAsLong();
        for (int i = 0; i < keep.length; i++) {
            keep[i] = get(Math.min(size - 1, namespaces + 1 + i));
        }
        long after = retained.getAsLong();
        return keep.length == 0 ? 0 : (after - before) / keep.length;
    }

    private static void meta(ObjectNode o, String namespace, String name, int index) {
        ObjectNode meta = (ObjectNode) o.get("metadata");
        meta.put("name", name);
        meta.put("namespace", namespace);
        meta.put("uid", uid(index));
        meta.put("resourceVersion", Integer.toString(100000 + index));
    }

    private static void owner(ObjectNode o, String apiVersion, String kind, String name) {
        ArrayNode owners = ((ObjectNode) o.get("metadata")).putArray("ownerReferences");
        owners.addObject().put("apiVersion", apiVersion).put("kind", kind).put("name", name)
                .put("uid", uid(name.hashCode() & 0x7fffffff)).put("controller", true).put("blockOwnerDeletion", true);
    }

    private static void containers(ArrayNode containers, String app, boolean bad) {
        ObjectNode main = (ObjectNode) containers.get(0);
        main.put("image", (bad ? "docker.io/library/" : "registry.example.com/") + app + ":1.4.2");
        ((ObjectNode) main.get("securityContext")).put("allowPrivilegeEscalation", bad);
    }

    private static String uid(int index) {
        return String.format("6f1c%04x-2b7e-4c1a-9d3e-%012x", index & 0xffff, (long) index * 2654435761L & 0xffffffffffffL);
    }

    private static ObjectNode parse(String yaml) {
        try {
            return (ObjectNode) Yaml.parse("cluster", yaml).get(0).content();
        } catch (DocumentParseException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final String MANAGED_FIELDS = """
              managedFields:
              - manager: kube-controller-manager
                operation: Update
                apiVersion: v1
                time: '2026-11-01T10:00:00Z'
                fieldsType: FieldsV1
                fieldsV1:
                  f:metadata: {f:generateName: {}, f:labels: {.: {}, f:app: {}, f:pod-template-hash: {}}, f:ownerReferences: {.: {}, 'k:{"uid":"x"}': {}}}
                  f:spec:
                    f:containers: {'k:{"name":"main"}': {.: {}, f:env: {}, f:image: {}, f:imagePullPolicy: {}, f:name: {}, f:ports: {}, f:resources: {}, f:securityContext: {}}}
                    f:dnsPolicy: {}
                    f:restartPolicy: {}
                    f:schedulerName: {}
                    f:terminationGracePeriodSeconds: {}
              - manager: kubelet
                operation: Update
                apiVersion: v1
                time: '2026-11-01T10:00:05Z'
                fieldsType: FieldsV1
                subresource: status
                fieldsV1:
                  f:status: {f:conditions: {}, f:containerStatuses: {}, f:hostIP: {}, f:phase: {}, f:podIP: {}, f:podIPs: {}, f:startTime: {}}
            """;

    private static final String POD_SPEC = """
                containers:
                - name: main
                  image: registry.example.com/app:1.4.2
                  imagePullPolicy: IfNotPresent
                  args: [--port=8080, --log-level=info]
                  ports: [{name: http, containerPort: 8080, protocol: TCP}, {name: metrics, containerPort: 9090, protocol: TCP}]
                  env:
                  - {name: LOG_FORMAT, value: json}
                  - {name: POD_NAME, valueFrom: {fieldRef: {apiVersion: v1, fieldPath: metadata.name}}}
                  - {name: POD_NAMESPACE, valueFrom: {fieldRef: {apiVersion: v1, fieldPath: metadata.namespace}}}
                  - {name: DB_PASSWORD, valueFrom: {secretKeyRef: {name: db, key: password}}}
                  - {name: CACHE_SIZE, value: '256'}
                  resources: {limits: {cpu: 500m, memory: 256Mi}, requests: {cpu: 100m, memory: 128Mi}}
                  readinessProbe: {httpGet: {path: /ready, port: 8080, scheme: HTTP}, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3}
                  livenessProbe: {httpGet: {path: /healthz, port: 8080, scheme: HTTP}, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3}
                  securityContext: {allowPrivilegeEscalation: false, runAsNonRoot: true, readOnlyRootFilesystem: true, capabilities: {drop: [ALL]}}
                  volumeMounts: [{name: config, mountPath: /etc/app}, {name: kube-api-access, mountPath: /var/run/secrets/kubernetes.io/serviceaccount, readOnly: true}]
                  terminationMessagePath: /dev/termination-log
                  terminationMessagePolicy: File
                - name: proxy
                  image: registry.example.com/proxy:2.1.0
                  imagePullPolicy: IfNotPresent
                  ports: [{name: proxy, containerPort: 15001, protocol: TCP}]
                  resources: {limits: {cpu: 200m, memory: 128Mi}, requests: {cpu: 50m, memory: 64Mi}}
                  securityContext: {runAsUser: 1337, runAsNonRoot: true}
                  terminationMessagePath: /dev/termination-log
                  terminationMessagePolicy: File
                volumes:
                - {name: config, configMap: {name: app-config, defaultMode: 420}}
                - name: kube-api-access
                  projected:
                    defaultMode: 420
                    sources:
                    - serviceAccountToken: {expirationSeconds: 3607, path: token}
                    - configMap: {name: kube-root-ca.crt, items: [{key: ca.crt, path: ca.crt}]}
                    - downwardAPI: {items: [{path: namespace, fieldRef: {apiVersion: v1, fieldPath: metadata.namespace}}]}
                restartPolicy: Always
                terminationGracePeriodSeconds: 30
                dnsPolicy: ClusterFirst
                serviceAccountName: default
                serviceAccount: default
                securityContext: {fsGroup: 2000}
                schedulerName: default-scheduler
                tolerations:
                - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
                - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
                priority: 0
                enableServiceLinks: true
                preemptionPolicy: PreemptLowerPriority
            """;

    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata:
              generateName: app-7d9f8c6b5-
              creationTimestamp: '2026-11-01T10:00:00Z'
              labels: {pod-template-hash: 7d9f8c6b5, version: v1}
              annotations: {kubectl.kubernetes.io/restartedAt: '2026-11-01T09:59:00Z', prometheus.io/scrape: 'true', prometheus.io/port: '9090'}
            """ + MANAGED_FIELDS + "spec:\n" + POD_SPEC + """
            status:
              phase: Running
              conditions:
              - {type: PodReadyToStartContainers, status: 'True', lastTransitionTime: '2026-11-01T10:00:03Z'}
              - {type: Initialized, status: 'True', lastTransitionTime: '2026-11-01T10:00:01Z'}
              - {type: Ready, status: 'True', lastTransitionTime: '2026-11-01T10:00:12Z'}
              - {type: ContainersReady, status: 'True', lastTransitionTime: '2026-11-01T10:00:12Z'}
              - {type: PodScheduled, status: 'True', lastTransitionTime: '2026-11-01T10:00:00Z'}
              hostIP: 10.0.3.17
              hostIPs: [{ip: 10.0.3.17}]
              podIP: 10.244.3.9
              podIPs: [{ip: 10.244.3.9}]
              startTime: '2026-11-01T10:00:01Z'
              qosClass: Burstable
              containerStatuses:
              - {name: main, ready: true, started: true, restartCount: 0, image: registry.example.com/app:1.4.2, imageID: 'registry.example.com/app@sha256:4f1e7d2c9a8b', containerID: 'containerd://8c1d2e3f4a5b', state: {running: {startedAt: '2026-11-01T10:00:04Z'}}, lastState: {}}
              - {name: proxy, ready: true, started: true, restartCount: 0, image: registry.example.com/proxy:2.1.0, imageID: 'registry.example.com/proxy@sha256:9a8b7c6d5e4f', containerID: 'containerd://1a2b3c4d5e6f', state: {running: {startedAt: '2026-11-01T10:00:04Z'}}, lastState: {}}
            """;

    private static final String TEMPLATE_SPEC = POD_SPEC.indent(4);

    private static final String REPLICA_SET = """
            apiVersion: apps/v1
            kind: ReplicaSet
            metadata:
              creationTimestamp: '2026-11-01T10:00:00Z'
              generation: 1
              labels: {pod-template-hash: 7d9f8c6b5}
              annotations: {deployment.kubernetes.io/desired-replicas: '5', deployment.kubernetes.io/max-replicas: '7', deployment.kubernetes.io/revision: '2'}
            """ + MANAGED_FIELDS + """
            spec:
              replicas: 5
              selector: {matchLabels: {pod-template-hash: 7d9f8c6b5}}
              template:
                metadata:
                  labels: {pod-template-hash: 7d9f8c6b5}
                spec:
            """ + TEMPLATE_SPEC + """
            status: {replicas: 5, fullyLabeledReplicas: 5, readyReplicas: 5, availableReplicas: 5, observedGeneration: 1}
            """;

    private static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              creationTimestamp: '2026-11-01T10:00:00Z'
              generation: 2
              labels: {}
              annotations: {deployment.kubernetes.io/revision: '2'}
            """ + MANAGED_FIELDS + """
            spec:
              replicas: 5
              selector: {matchLabels: {}}
              strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 25%}}
              revisionHistoryLimit: 10
              progressDeadlineSeconds: 600
              template:
                metadata:
                  labels: {}
                spec:
            """ + TEMPLATE_SPEC + """
            status:
              observedGeneration: 2
              replicas: 5
              updatedReplicas: 5
              readyReplicas: 5
              availableReplicas: 5
              conditions:
              - {type: Available, status: 'True', reason: MinimumReplicasAvailable, message: Deployment has minimum availability., lastUpdateTime: '2026-11-01T10:00:12Z', lastTransitionTime: '2026-11-01T10:00:12Z'}
              - {type: Progressing, status: 'True', reason: NewReplicaSetAvailable, message: ReplicaSet has successfully progressed., lastUpdateTime: '2026-11-01T10:00:12Z', lastTransitionTime: '2026-11-01T10:00:00Z'}
            """;

    private static final String SERVICE = """
            apiVersion: v1
            kind: Service
            metadata:
              creationTimestamp: '2026-11-01T10:00:00Z'
              labels: {}
              annotations: {prometheus.io/scrape: 'true'}
            spec:
              type: ClusterIP
              selector: {}
              ports: [{name: http, port: 80, targetPort: 8080, protocol: TCP}, {name: metrics, port: 9090, targetPort: 9090, protocol: TCP}]
              clusterIP: 10.96.0.10
              clusterIPs: [10.96.0.10]
              ipFamilies: [IPv4]
              ipFamilyPolicy: SingleStack
              sessionAffinity: None
              internalTrafficPolicy: Cluster
            status: {loadBalancer: {}}
            """;

    private static final String CONFIG_MAP = """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              creationTimestamp: '2026-11-01T10:00:00Z'
              labels: {}
            data:
              LOG_LEVEL: info
              FEATURE_FLAGS: 'search=true,checkout-v2=false,recommendations=true'
              application.yaml: |
                server:
                  port: 8080
                  shutdown: graceful
                cache:
                  size: 256
                  ttl: 10m
            """;
}
