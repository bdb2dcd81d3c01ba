/**
 * What a cluster needs before the chart: DNS (CoreDNS with no upstream: names outside the cluster do
 * not resolve), the resource metrics API (metrics-server: `kubectl top`, the CPU trigger), KEDA (the
 * scraper's ScaledObject), and read access for the Prometheus that runs beside the cluster. Objects
 * written here, images built from the toolchain's binaries (clusterImages.ts); KEDA's custom resource
 * definitions and its operator's role come from its own module, as its release ships them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { CLUSTER_DOMAIN, DNS_SERVICE_IP } from './clusterLayout.ts';
import { ADDON_IMAGES } from './clusterImages.ts';
import { moduleDir } from './toolchain.ts';

type K8sObject = Record<string, unknown>;

const restricted = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  runAsNonRoot: true,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
};

export function corednsObjects(): K8sObject[] {
  const labels = { 'k8s-app': 'kube-dns' };
  const corefile = [
    '.:1053 {',
    '    errors',
    '    health :8080',
    '    ready :8181',
    `    kubernetes ${CLUSTER_DOMAIN} in-addr.arpa ip6.arpa {`,
    '        pods insecure',
    '        fallthrough in-addr.arpa ip6.arpa',
    '        ttl 30',
    '    }',
    '    prometheus :9153',
    '    cache 30',
    '    loop',
    '    reload',
    '    loadbalance',
    '}',
    '',
  ].join('\n');
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'coredns', namespace: 'kube-system' } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'leadforge:coredns' },
      rules: [
        { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'leadforge:coredns' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'leadforge:coredns' },
      subjects: [{ kind: 'ServiceAccount', name: 'coredns', namespace: 'kube-system' }],
    },
    // No `forward` plugin: there is no upstream resolver inside the namespace, and none is wanted.
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', namespace: 'kube-system' }, data: { Corefile: corefile } },
    {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'coredns', namespace: 'kube-system', labels },
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: 'coredns',
            priorityClassName: 'system-cluster-critical',
            dnsPolicy: 'Default',
            containers: [{
              name: 'coredns', image: ADDON_IMAGES.coredns, imagePullPolicy: 'IfNotPresent',
              args: ['-conf', '/etc/coredns/Corefile'],
              // Unprivileged, so on 1053: the Service maps 53 to it.
              ports: [{ name: 'dns', containerPort: 1053, protocol: 'UDP' }, { name: 'dns-tcp', containerPort: 1053, protocol: 'TCP' }, { name: 'metrics', containerPort: 9153 }],
              readinessProbe: { httpGet: { path: '/ready', port: 8181 }, periodSeconds: 2 },
              livenessProbe: { httpGet: { path: '/health', port: 8080 }, periodSeconds: 10 },
              resources: { requests: { cpu: '20m', memory: '32Mi' }, limits: { memory: '128Mi' } },
              securityContext: restricted,
              volumeMounts: [{ name: 'config', mountPath: '/etc/coredns', readOnly: true }],
            }],
            volumes: [{ name: 'config', configMap: { name: 'coredns' } }],
          },
        },
      },
    },
    {
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'kube-dns', namespace: 'kube-system', labels },
      spec: {
        clusterIP: DNS_SERVICE_IP,
        selector: labels,
        ports: [
          { name: 'dns', port: 53, targetPort: 1053, protocol: 'UDP' },
          { name: 'dns-tcp', port: 53, targetPort: 1053, protocol: 'TCP' },
        ],
      },
    },
  ];
}

export function metricsServerObjects(): K8sObject[] {
  const labels = { 'k8s-app': 'metrics-server' };
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'metrics-server', namespace: 'kube-system' } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'leadforge:metrics-server' },
      rules: [
        { apiGroups: [''], resources: ['nodes/metrics'], verbs: ['get'] },
        { apiGroups: [''], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole',
      metadata: { name: 'leadforge:aggregated-metrics-reader', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true', 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } },
      rules: [{ apiGroups: ['metrics.k8s.io'], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'leadforge:metrics-server' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'leadforge:metrics-server' },
      subjects: [{ kind: 'ServiceAccount', name: 'metrics-server', namespace: 'kube-system' }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'leadforge:metrics-server:auth-delegator' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:auth-delegator' },
      subjects: [{ kind: 'ServiceAccount', name: 'metrics-server', namespace: 'kube-system' }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'leadforge:metrics-server:auth-reader', namespace: 'kube-system' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'extension-apiserver-authentication-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'metrics-server', namespace: 'kube-system' }],
    },
    {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'metrics-server', namespace: 'kube-system', labels },
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: 'metrics-server',
            priorityClassName: 'system-cluster-critical',
            containers: [{
              name: 'metrics-server', image: ADDON_IMAGES.metricsServer, imagePullPolicy: 'IfNotPresent',
              args: [
                '--secure-port=10250', '--cert-dir=/tmp', '--metric-resolution=15s',
                '--kubelet-preferred-address-types=InternalIP', '--kubelet-use-node-status-port',
                // The kubelet's serving certificate is the cluster CA's: verified, not skipped.
                '--kubelet-certificate-authority=/ca/ca.crt',
              ],
              ports: [{ name: 'https', containerPort: 10250 }],
              readinessProbe: { httpGet: { path: '/readyz', port: 'https', scheme: 'HTTPS' }, periodSeconds: 5 },
              livenessProbe: { httpGet: { path: '/livez', port: 'https', scheme: 'HTTPS' }, periodSeconds: 10 },
              resources: { requests: { cpu: '20m', memory: '48Mi' }, limits: { memory: '200Mi' } },
              securityContext: restricted,
              volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }, { name: 'ca', mountPath: '/ca', readOnly: true }],
            }],
            volumes: [{ name: 'tmp', emptyDir: {} }, { name: 'ca', configMap: { name: 'kube-root-ca.crt' } }],
          },
        },
      },
    },
    {
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'metrics-server', namespace: 'kube-system', labels },
      spec: { selector: labels, ports: [{ name: 'https', port: 443, targetPort: 'https', protocol: 'TCP' }] },
    },
    {
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1beta1.metrics.k8s.io' },
      spec: {
        service: { name: 'metrics-server', namespace: 'kube-system' },
        group: 'metrics.k8s.io', version: 'v1beta1',
        // metrics-server serves a certificate of its own making: the aggregator cannot verify it.
        insecureSkipTLSVerify: true,
        groupPriorityMinimum: 100, versionPriority: 100,
      },
    },
  ];
}

export function prometheusAccess(): K8sObject[] {
  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'leadforge:prometheus' },
      rules: [
        { apiGroups: [''], resources: ['pods', 'services', 'endpoints', 'nodes'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'leadforge:prometheus' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'leadforge:prometheus' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'leadforge-prometheus' }],
    },
  ];
}

/** KEDA's own manifests from its module: the custom resource definitions, and the roles and bindings of its operator and metrics API server. */
function kedaModuleObjects(cacheDir: string): K8sObject[] {
  const dir = moduleDir('keda', cacheDir);
  const read = (file: string) => parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf8')).map((d) => d.toJSON()).filter(Boolean) as K8sObject[];
  const crds = fs.readdirSync(path.join(dir, 'config/crd/bases')).filter((f) => f.endsWith('.yaml')).flatMap((f) => read(path.join('config/crd/bases', f)));
  const rbac = ['config/rbac/role.yaml', 'config/rbac/role_binding.yaml', 'config/metrics-server/role.yaml', 'config/metrics-server/role_binding.yaml'].flatMap(read);
  return [...crds, ...rbac];
}

function kedaObjects(cacheDir: string, pki: string): K8sObject[] {
  const ns = 'keda';
  const pem = (name: string) => fs.readFileSync(path.join(pki, name), 'utf8');
  const operatorLabels = { app: 'keda-operator' };
  const adapterLabels = { app: 'keda-metrics-apiserver' };
  const certs = { name: 'certificates', secret: { secretName: 'kedaorg-certs', optional: true, defaultMode: 0o444 } };
  const env = [
    { name: 'WATCH_NAMESPACE', value: '' },
    { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
    { name: 'KEDA_HTTP_DEFAULT_TIMEOUT', value: '3000' },
  ];
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    ...kedaModuleObjects(cacheDir),
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'keda-operator', namespace: ns } },
    // The certificates both KEDA servers mount (clusterPki.ts), where their own rotation would put them.
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'kedaorg-certs', namespace: ns }, type: 'Opaque', stringData: { 'ca.crt': pem('ca.crt'), 'tls.crt': pem('keda.crt'), 'tls.key': pem('keda.key') } },
    {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'keda-operator', namespace: ns, labels: operatorLabels },
      spec: {
        replicas: 1,
        selector: { matchLabels: operatorLabels },
        template: {
          metadata: { labels: operatorLabels },
          spec: {
            serviceAccountName: 'keda-operator',
            containers: [{
              name: 'keda-operator', image: ADDON_IMAGES.keda, imagePullPolicy: 'IfNotPresent',
              args: ['--leader-elect=false', '--zap-log-level=info', '--zap-encoder=console', '--enable-cert-rotation=false'],
              env,
              ports: [{ name: 'http', containerPort: 8080 }, { name: 'metricsservice', containerPort: 9666 }],
              readinessProbe: { httpGet: { path: '/readyz', port: 8081 }, periodSeconds: 5 },
              livenessProbe: { httpGet: { path: '/healthz', port: 8081 }, initialDelaySeconds: 25 },
              resources: { requests: { cpu: '50m', memory: '100Mi' }, limits: { memory: '1000Mi' } },
              securityContext: restricted,
              volumeMounts: [{ name: 'certificates', mountPath: '/certs', readOnly: true }, { name: 'kerberos', mountPath: '/tmp/kerberos' }],
            }],
            volumes: [certs, { name: 'kerberos', emptyDir: { medium: 'Memory' } }],
          },
        },
      },
    },
    {
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'keda-operator', namespace: ns, labels: operatorLabels },
      spec: { selector: operatorLabels, ports: [{ name: 'metricsservice', port: 9666, targetPort: 9666 }] },
    },
    {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'keda-metrics-apiserver', namespace: ns, labels: adapterLabels },
      spec: {
        replicas: 1,
        selector: { matchLabels: adapterLabels },
        template: {
          metadata: { labels: adapterLabels },
          spec: {
            serviceAccountName: 'keda-operator',
            containers: [{
              name: 'keda-metrics-apiserver', image: ADDON_IMAGES.kedaAdapter, imagePullPolicy: 'IfNotPresent',
              args: ['--secure-port=6443', '--zap-log-level=error', '--client-ca-file=/certs/ca.crt', '--tls-cert-file=/certs/tls.crt', '--tls-private-key-file=/certs/tls.key', '--cert-dir=/certs', `--metrics-service-address=keda-operator.${ns}.svc.${CLUSTER_DOMAIN}:9666`],
              env,
              ports: [{ name: 'https', containerPort: 6443 }, { name: 'http', containerPort: 8080 }],
              readinessProbe: { httpGet: { path: '/readyz', port: 6443, scheme: 'HTTPS' }, periodSeconds: 5 },
              livenessProbe: { httpGet: { path: '/healthz', port: 6443, scheme: 'HTTPS' }, initialDelaySeconds: 5 },
              resources: { requests: { cpu: '50m', memory: '100Mi' }, limits: { memory: '1000Mi' } },
              securityContext: restricted,
              volumeMounts: [{ name: 'certificates', mountPath: '/certs', readOnly: true }, { name: 'tmp', mountPath: '/tmp' }],
            }],
            volumes: [{ ...certs, secret: { ...certs.secret, optional: false } }, { name: 'tmp', emptyDir: {} }],
          },
        },
      },
    },
    {
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'keda-metrics-apiserver', namespace: ns, labels: adapterLabels },
      spec: { selector: adapterLabels, ports: [{ name: 'https', port: 443, targetPort: 6443 }, { name: 'http', port: 80, targetPort: 8080 }] },
    },
    {
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1beta1.external.metrics.k8s.io', labels: adapterLabels },
      spec: {
        service: { name: 'keda-metrics-apiserver', namespace: ns },
        group: 'external.metrics.k8s.io', version: 'v1beta1',
        caBundle: Buffer.from(pem('ca.crt')).toString('base64'),
        groupPriorityMinimum: 100, versionPriority: 100,
      },
    },
  ];
}

/** Every add-on as one multi-document YAML stream, in the order `kubectl apply` should create them. */
export function addonManifests(cacheDir: string, pki: string): string {
  return [...corednsObjects(), ...metricsServerObjects(), ...prometheusAccess(), ...kedaObjects(cacheDir, pki)]
    .map((object) => stringify(object, { lineWidth: 0 })).join('---\n');
}
