{{/* Names: <release>-<service> everywhere, so the Service DNS name is the one the gateway is given. */}}
{{- define "readiness.fullname" -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}

{{- define "readiness.serviceName" -}}
{{- printf "%s-%s" (include "readiness.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
One service's values: serviceDefaults, overlaid by its row of the topology table (topology.yaml, written from
proto/src/topology.ts: what it uses, the queues KEDA watches, whom it calls), overlaid by the service's own entry.
Call with (dict "root" $ "name" $name).
*/}}
{{- define "readiness.service" -}}
{{- $own := index .root.Values.services .name | default dict -}}
{{- $row := index (include "readiness.topology" .root | fromYaml) .name | default dict -}}
{{- $table := dict -}}
{{- with $row.uses }}{{ $_ := set $table "uses" . }}{{ end -}}
{{- with $row.queues }}{{ $_ := set $table "keda" (dict "queues" .) }}{{ end -}}
{{- with $row.calls }}{{ $_ := set $table "calls" . }}{{ end -}}
{{- toYaml (mergeOverwrite (deepCopy .root.Values.serviceDefaults) $table (deepCopy $own)) -}}
{{- end -}}

{{/* The topology table's services by name (topology.yaml, written by `make topology`). */}}
{{- define "readiness.topology" -}}
{{- toYaml ((.Files.Get "topology.yaml" | fromYaml).services | default dict) -}}
{{- end -}}

{{/* Names of the enabled services, sorted, as a YAML list. */}}
{{- define "readiness.enabledServices" -}}
{{- $names := list -}}
{{- range $name := keys .Values.services | sortAlpha -}}
{{- $svc := include "readiness.service" (dict "root" $ "name" $name) | fromYaml -}}
{{- if $svc.enabled }}{{ $names = append $names $name }}{{ end -}}
{{- end -}}
{{- toYaml $names -}}
{{- end -}}

{{- define "readiness.chartLabel" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels on every object. Call with (dict "root" $ "name" $name). */}}
{{- define "readiness.labels" -}}
helm.sh/chart: {{ include "readiness.chartLabel" .root }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: readiness
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
{{ include "readiness.selectorLabels" . }}
readiness.io/service: {{ .name }}
{{- end -}}

{{/* Selects the serving pods of one service (not its migration Job). */}}
{{- define "readiness.selectorLabels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: server
{{- end -}}

{{/* Labels of release-wide objects (NetworkPolicy defaults, test pod). */}}
{{- define "readiness.commonLabels" -}}
helm.sh/chart: {{ include "readiness.chartLabel" . }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: readiness
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "readiness.image" -}}
{{- $repo := .svc.image.repository | required (printf "services.%s.image.repository is required" .name) -}}
{{- with .root.Values.global.imageRegistry }}{{ $repo = printf "%s/%s" (trimSuffix "/" .) $repo }}{{ end -}}
{{- $ref := printf "%s:%s" $repo (.svc.image.tag | default .root.Chart.AppVersion) -}}
{{- with .svc.image.digest }}{{ $ref = printf "%s@%s" $ref . }}{{ end -}}
{{- $ref -}}
{{- end -}}

{{/* Plain settings of one service; also hashed into checksum/config so a change rolls the pods. */}}
{{- define "readiness.configData" -}}
{{- $root := .root -}}
{{- $svc := .svc -}}
{{- $data := dict
  "PORT" "8080"
  "INTERNAL_PORT" ($root.Values.metrics.port | toString)
  "TRUSTED_PROXIES" (eq .name "gateway" | ternary $root.Values.ingress.trustedProxies $svc.trustedProxies | toString)
  "NODE_ENV" "production"
  "SERVICE_NAME" .name
  "LOG_LEVEL" ($svc.logLevel | default $root.Values.global.logLevel)
  "SHUTDOWN_GRACE_SECONDS" (toString $svc.shutdownGraceSeconds)
  "PUBLIC_ORIGIN" $root.Values.global.publicOrigin
  "CORS_ORIGINS" (prepend $root.Values.global.corsOrigins $root.Values.global.publicOrigin | uniq | join ",")
  "AUTH_JWKS_URL" (printf "http://%s:8080%s" (include "readiness.serviceName" (dict "root" $root "name" "auth")) $root.Values.auth.jwksPath)
  "ADMIN_SESSION_MAX_HOURS" ($root.Values.auth.sessionMaxHours | toString)
  "OIDC_ALLOW_PASSWORD" ($root.Values.auth.allowPassword | toString)
-}}
{{- range $key := list "ADMIN_SESSION_MAX_HOURS" "OIDC_ALLOW_PASSWORD" -}}
{{- if hasKey $svc.env $key }}{{ fail (printf "services.%s.env.%s: set it once for every service in auth.sessionMaxHours / auth.allowPassword" $.name $key) }}{{ end -}}
{{- end -}}
{{- range $other := $svc.calls -}}
{{- $_ := set $data (printf "%s_URL" ($other | upper | replace "-" "_")) (printf "http://%s:8080" (include "readiness.serviceName" (dict "root" $root "name" $other))) -}}
{{- end -}}
{{- if $svc.uses.s3 -}}
{{- $_ := set $data "S3_ENDPOINT" $root.Values.dependencies.s3.endpoint -}}
{{- $_ := set $data "S3_BUCKET" $root.Values.dependencies.s3.bucket -}}
{{- $_ := set $data "S3_REGION" $root.Values.dependencies.s3.region -}}
{{- end -}}
{{- with $root.Values.tracing.otlpEndpoint -}}
{{- $_ := set $data "OTEL_EXPORTER_OTLP_ENDPOINT" . -}}
{{- $_ := set $data "OTEL_TRACES_SAMPLER" "parentbased_traceidratio" -}}
{{- $_ := set $data "OTEL_TRACES_SAMPLER_ARG" ($root.Values.tracing.sampleRatio | toString) -}}
{{- end -}}
{{- range $k, $v := $svc.env -}}
{{- $_ := set $data $k (toString $v) -}}
{{- end -}}
{{- toYaml $data -}}
{{- end -}}

{{/* Environment read from existing Secrets. Call with (dict "root" $ "name" $name "svc" $svc). */}}
{{- define "readiness.secretEnv" -}}
{{- $deps := .root.Values.dependencies -}}
{{- $refs := dict -}}
{{- if .svc.uses.postgres -}}
{{- $_ := set $refs "DATABASE_URL" (dict "existingSecret" (.svc.database.existingSecret | required (printf "services.%s.database.existingSecret is required when uses.postgres" .name)) "key" .svc.database.key) -}}
{{- end -}}
{{- if .svc.uses.rabbitmq }}{{ $_ := set $refs "AMQP_URL" (dict "existingSecret" $deps.rabbitmq.existingSecret "key" $deps.rabbitmq.key) }}{{ end -}}
{{- if .svc.uses.redis }}{{ $_ := set $refs "REDIS_URL" (dict "existingSecret" $deps.redis.existingSecret "key" $deps.redis.key) }}{{ end -}}
{{- if .svc.uses.smtp }}{{ $_ := set $refs "SMTP_URL" (dict "existingSecret" $deps.smtp.existingSecret "key" $deps.smtp.key) }}{{ end -}}
{{- if .svc.uses.s3 -}}
{{- $_ := set $refs "S3_ACCESS_KEY" (dict "existingSecret" $deps.s3.existingSecret "key" $deps.s3.accessKeyKey) -}}
{{- $_ := set $refs "S3_SECRET_KEY" (dict "existingSecret" $deps.s3.existingSecret "key" $deps.s3.secretKeyKey) -}}
{{- end -}}
{{- range $k, $v := .svc.secretEnv }}{{ $_ := set $refs $k $v }}{{ end -}}
{{- range $k := keys $refs | sortAlpha }}
{{- $ref := index $refs $k }}
- name: {{ $k }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.existingSecret }}
      key: {{ $ref.key }}
      {{- if $ref.optional }}
      optional: true
      {{- end }}
{{- end -}}
{{- end -}}

{{/* The pod-level parts every workload of the chart shares. */}}
{{- define "readiness.podSecurity" -}}
automountServiceAccountToken: false
securityContext:
  {{- toYaml .root.Values.podSecurityContext | nindent 2 }}
{{- with .root.Values.global.imagePullSecrets }}
imagePullSecrets:
  {{- range . }}
  - name: {{ . }}
  {{- end }}
{{- end }}
{{- end -}}

{{- define "readiness.volumes" -}}
- name: tmp
  emptyDir:
    sizeLimit: {{ .svc.tmpSizeLimit }}
{{- with .svc.shmSizeLimit }}
- name: shm
  emptyDir:
    medium: Memory
    sizeLimit: {{ . }}
{{- end }}
{{- end -}}

{{- define "readiness.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
{{- if .svc.shmSizeLimit }}
- name: shm
  mountPath: /dev/shm
{{- end }}
{{- end -}}

{{/* Egress rule reaching the cluster DNS. */}}
{{- define "readiness.dnsEgress" -}}
- to:
    - namespaceSelector:
        {{- toYaml .Values.networkPolicy.dns.namespaceSelector | nindent 8 }}
      podSelector:
        {{- toYaml .Values.networkPolicy.dns.podSelector | nindent 8 }}
  ports:
    - protocol: UDP
      port: 53
    - protocol: TCP
      port: 53
{{- end -}}

{{/* Who sets the replica count: "keda", "hpa" or "" (the Deployment itself). */}}
{{- define "readiness.autoscaler" -}}
{{- if and .svc.keda.enabled (eq .svc.role "consumer") .svc.uses.rabbitmq (.root.Capabilities.APIVersions.Has "keda.sh/v1alpha1") -}}
keda
{{- else if .svc.autoscaling.enabled -}}
hpa
{{- end -}}
{{- end -}}
