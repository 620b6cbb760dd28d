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

{{/* The webhook mode, or a failure that names the modes there are. */}}
{{- define "apo.webhookMode" -}}
{{- $mode := .Values.webhook.mode | toString -}}
{{- if not (has $mode (list "self-managed" "cert-manager" "off")) -}}
{{- fail (printf "webhook.mode=%s is not one of self-managed, cert-manager, off" $mode) -}}
{{- end -}}
{{- $mode -}}
{{- end -}}
