{{/* The environment of a service container (Deployment and migration Job alike).
     Call with (dict "ctx" $ "name" "auth" "svc" <settings> "optionalDatabase" <bool>). */}}
{{- define "leadforge.serviceEnv" -}}
{{- $ctx := .ctx -}}
{{- $upper := upper .name -}}
envFrom:
  - configMapRef:
      name: leadforge-config
env:
  - { name: LEADFORGE_SERVICE, value: {{ .name | quote }} }
  - { name: PORT, value: "8080" }
  - { name: SERVICE_HOST, value: "0.0.0.0" }
  - { name: SHUTDOWN_TIMEOUT_SECONDS, value: {{ .svc.shutdownTimeoutSeconds | quote }} }
  - { name: KAFKA_CLIENT_ID, value: {{ printf "leadforge-%s" .name | quote }} }
  - { name: DATA_DIR, value: /tmp/leadforge }
  - name: {{ $upper }}_DATABASE_URL
    valueFrom:
      secretKeyRef:
        {{- if eq $ctx.Values.postgres.mode "operator" }}
        name: {{ include "leadforge.databaseCluster" .name }}-app
        key: uri
        {{- if .optionalDatabase }}
        optional: true
        {{- end }}
        {{- else }}
        name: {{ $ctx.Values.secrets.name }}
        key: {{ $upper }}_DATABASE_URL
        {{- end }}
  {{- if eq $ctx.Values.redis.mode "external" }}
  - name: REDIS_URL
    valueFrom:
      secretKeyRef: { name: {{ $ctx.Values.secrets.name }}, key: REDIS_URL }
  {{- end }}
  - name: INTERNAL_TOKEN
    valueFrom:
      secretKeyRef: { name: {{ $ctx.Values.secrets.name }}, key: INTERNAL_TOKEN }
  {{- range .svc.secretEnv }}
  - name: {{ . }}
    valueFrom:
      secretKeyRef: { name: {{ $ctx.Values.secrets.name }}, key: {{ . }}, optional: true }
  {{- end }}
  {{- if eq .name "scraper" }}
  - { name: SCRAPER_CONCURRENCY, value: {{ $ctx.Values.scraper.concurrencyPerReplica | quote }} }
  - { name: SCRAPER_JOBS_PER_REPLICA, value: {{ $ctx.Values.scraper.jobsPerReplica | quote }} }
  {{- end }}
  {{- range $key, $value := .svc.env }}
  - { name: {{ $key }}, value: {{ $value | toString | quote }} }
  {{- end }}
{{- end }}
