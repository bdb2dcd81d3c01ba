{{/* Labels every object carries. Call with (dict "ctx" $ "component" "auth" "role" "service"). */}}
{{- define "leadforge.labels" -}}
app.kubernetes.io/name: leadforge
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/version: {{ .ctx.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .ctx.Release.Service }}
app.kubernetes.io/component: {{ .component }}
helm.sh/chart: {{ printf "%s-%s" .ctx.Chart.Name .ctx.Chart.Version }}
leadforge.io/role: {{ .role }}
{{- end }}

{{/* Pod selector labels (stable across upgrades). */}}
{{- define "leadforge.selectorLabels" -}}
app.kubernetes.io/name: leadforge
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/* A service's settings: serviceDefaults overlaid with its own entry. Returns YAML; use fromYaml. */}}
{{- define "leadforge.serviceSettings" -}}
{{- $entry := .entry | default dict -}}
{{- toYaml (mergeOverwrite (deepCopy .ctx.Values.serviceDefaults) (deepCopy $entry)) -}}
{{- end }}

{{/* Whether a service entry is enabled ("true"/"false"). */}}
{{- define "leadforge.serviceEnabled" -}}
{{- $entry := .entry | default dict -}}
{{- if hasKey $entry "enabled" }}{{ $entry.enabled }}{{ else }}true{{ end -}}
{{- end }}

{{/* image reference. Call with (dict "ctx" $ "image" <image block> "name" "auth"). */}}
{{- define "leadforge.image" -}}
{{- $img := .image | default dict -}}
{{- $v := .ctx.Values.image -}}
{{- $repo := $img.repository | default (printf "%s%s%s" (ternary "" (printf "%s/" $v.registry) (empty $v.registry)) $v.repositoryPrefix .name) -}}
{{- $tag := $img.tag | default $v.tag | default .ctx.Chart.AppVersion -}}
{{- if hasPrefix "sha256:" (toString $tag) }}{{ printf "%s@%s" $repo $tag }}{{ else }}{{ printf "%s:%s" $repo (toString $tag) }}{{ end -}}
{{- end }}

{{- define "leadforge.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .uid }}
runAsGroup: {{ .uid }}
fsGroup: {{ .uid }}
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "leadforge.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
privileged: false
capabilities:
  drop: [ALL]
{{- end }}

{{/* Spread replicas over nodes and zones. Call with (dict "ctx" $ "component" "auth"). */}}
{{- define "leadforge.topologySpread" -}}
{{- if .ctx.Values.topologySpread.enabled }}
topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: kubernetes.io/hostname
    whenUnsatisfiable: ScheduleAnyway
    labelSelector:
      matchLabels:
        {{- include "leadforge.selectorLabels" . | nindent 8 }}
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: ScheduleAnyway
    labelSelector:
      matchLabels:
        {{- include "leadforge.selectorLabels" . | nindent 8 }}
{{- end }}
{{- end }}

{{- define "leadforge.kafkaBrokers" -}}
{{- if eq .Values.kafka.mode "operator" -}}
{{ printf "%s-kafka-bootstrap:9092" .Values.kafka.operator.name }}
{{- else -}}
{{ required "kafka.external.brokers is required when kafka.mode is external" .Values.kafka.external.brokers }}
{{- end -}}
{{- end }}

{{/* Name of the CloudNativePG cluster of a service. */}}
{{- define "leadforge.databaseCluster" -}}{{ printf "%s-db" . }}{{- end }}

{{/* The scraper's replica cap: the autoscaler's maximum, lowered to what the proxy quota allows. */}}
{{- define "leadforge.scraperMaxReplicas" -}}
{{- $s := .Values.scraper -}}
{{- $byQuota := div (int $s.proxyConcurrency) (int $s.concurrencyPerReplica) | int -}}
{{- max 1 (min (int $s.autoscaling.maxReplicas) $byQuota) -}}
{{- end }}

{{/* Whether ServiceMonitor / PrometheusRule objects are rendered. */}}
{{- define "leadforge.prometheusOperator" -}}
{{- $mode := .Values.monitoring.prometheusOperator -}}
{{- if or (eq $mode "enabled") (and (eq $mode "auto") (.Capabilities.APIVersions.Has "monitoring.coreos.com/v1/ServiceMonitor")) -}}true{{- end -}}
{{- end }}

{{/* DNS egress, needed by every pod that resolves a name. */}}
{{- define "leadforge.dnsEgress" -}}
- to:
    - namespaceSelector:
        {{- toYaml .Values.networkPolicy.dnsNamespaceSelector | nindent 8 }}
  ports:
    - { protocol: UDP, port: 53 }
    - { protocol: TCP, port: 53 }
{{- end }}

{{/* Every cluster address outside the pod network; "internet" egress excludes private ranges. */}}
{{- define "leadforge.internetPeer" -}}
- ipBlock:
    cidr: 0.0.0.0/0
    except: [10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 169.254.0.0/16, 100.64.0.0/10]
{{- end }}
