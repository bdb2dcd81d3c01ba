#!/usr/bin/env bash
# The operators the chart relies on (installed once per cluster, outside the chart so that their
# CRDs exist before the chart's objects): CloudNativePG, Strimzi, KEDA; with MONITORING=1 also
# kube-prometheus-stack (Prometheus Operator + Grafana with its dashboard sidecar).
# Versions are pinned here; override with the variables below.
set -euo pipefail
CNPG_CHART_VERSION="${CNPG_CHART_VERSION:-0.26.0}"
STRIMZI_VERSION="${STRIMZI_VERSION:-0.47.0}"
KEDA_CHART_VERSION="${KEDA_CHART_VERSION:-2.17.2}"
PROMETHEUS_STACK_VERSION="${PROMETHEUS_STACK_VERSION:-75.15.1}"

helm repo add cnpg https://cloudnative-pg.github.io/charts >/dev/null
helm repo add kedacore https://kedacore.github.io/charts >/dev/null
helm repo update >/dev/null

helm upgrade --install cnpg cnpg/cloudnative-pg --version "$CNPG_CHART_VERSION" \
  --namespace cnpg-system --create-namespace --wait
helm upgrade --install strimzi oci://quay.io/strimzi-helm/strimzi-kafka-operator --version "$STRIMZI_VERSION" \
  --namespace strimzi --create-namespace --set watchAnyNamespace=true --wait
helm upgrade --install keda kedacore/keda --version "$KEDA_CHART_VERSION" \
  --namespace keda --create-namespace --wait

if [ "${MONITORING:-0}" = "1" ]; then
  helm repo add prometheus-community https://prometheus-community.github.io/helm-charts >/dev/null
  helm repo update >/dev/null
  # Select ServiceMonitors and rules of every release; Grafana's sidecar picks up dashboards in all namespaces.
  helm upgrade --install monitoring prometheus-community/kube-prometheus-stack --version "$PROMETHEUS_STACK_VERSION" \
    --namespace monitoring --create-namespace --wait \
    --set prometheus.prometheusSpec.serviceMonitorSelectorNilUsesHelmValues=false \
    --set prometheus.prometheusSpec.ruleSelectorNilUsesHelmValues=false \
    --set grafana.sidecar.dashboards.searchNamespace=ALL \
    --set grafana.sidecar.dashboards.folderAnnotation=grafana_folder \
    --set grafana.sidecar.dashboards.provider.foldersFromFilesStructure=true
fi
