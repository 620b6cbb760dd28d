{{/* Labels of every object: config/'s (name, part-of) and Helm's own. */}}
{{- define "apo.labels" -}}
app.kubernetes.io/name: admission-policy-operator
app.kubernetes.io/part-of: admission-policy-operator
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "apo.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{/* Fails on a webhook mode this chart cannot install, with what to do instead. */}}
{{- define "apo.webhookMode" -}}
{{- $mode := .Values.webhook.mode | toString -}}
{{- if eq $mode "self-managed" -}}
{{- fail "webhook.mode=self-managed: the operator's self-managed certificates are not in this chart version yet; use webhook.mode=cert-manager (cert-manager must be installed) or webhook.mode=off" -}}
{{- else if not (has $mode (list "off" "cert-manager")) -}}
{{- fail (printf "webhook.mode=%s is not one of off, cert-manager, self-managed" $mode) -}}
{{- end -}}
{{- $mode -}}
{{- end -}}
