/**
 * The cluster's certificates and keys, made once per data folder with Debian's openssl: a CA for the
 * components, one for the aggregation layer's front proxy (metrics-server, KEDA's metrics API), the
 * service-account signing key, and a client certificate per component (its user and groups are the
 * certificate's CN and O, as Kubernetes reads them).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { API_SERVICE_IP, CLUSTER_DOMAIN, NODE_IP, NODE_NAME } from './clusterLayout.ts';

interface Leaf {
  name: string;
  subject: string;
  ca: 'ca' | 'front-proxy-ca';
  /** Subject alternative names for a server certificate. */
  san?: string[];
  server?: boolean;
  /** A server certificate that also authenticates its holder as a client. */
  client?: boolean;
}

const LEAVES: Leaf[] = [
  {
    name: 'apiserver', subject: '/CN=kube-apiserver', ca: 'ca', server: true,
    san: [`IP:${API_SERVICE_IP}`, `IP:${NODE_IP}`, 'IP:127.0.0.1', 'DNS:localhost', 'DNS:kubernetes', 'DNS:kubernetes.default', 'DNS:kubernetes.default.svc', `DNS:kubernetes.default.svc.${CLUSTER_DOMAIN}`],
  },
  { name: 'apiserver-kubelet-client', subject: '/O=system:masters/CN=kube-apiserver-kubelet-client', ca: 'ca' },
  { name: 'admin', subject: '/O=system:masters/CN=leadforge-admin', ca: 'ca' },
  { name: 'controller-manager', subject: '/CN=system:kube-controller-manager', ca: 'ca' },
  { name: 'scheduler', subject: '/CN=system:kube-scheduler', ca: 'ca' },
  { name: 'kube-proxy', subject: '/O=system:node-proxier/CN=system:kube-proxy', ca: 'ca' },
  { name: 'kubelet-client', subject: `/O=system:nodes/CN=system:node:${NODE_NAME}`, ca: 'ca' },
  { name: 'kubelet', subject: `/CN=${NODE_NAME}`, ca: 'ca', server: true, san: [`IP:${NODE_IP}`, `DNS:${NODE_NAME}`] },
  { name: 'prometheus', subject: '/CN=leadforge-prometheus', ca: 'ca' },
  { name: 'front-proxy-client', subject: '/CN=front-proxy-client', ca: 'front-proxy-ca' },
  // KEDA's operator and metrics API server (the gRPC between them, and the aggregated API): made here,
  // as cert-manager would, rather than by the operator's own rotation, which restarts it until the
  // kubelet has caught up with the Secret it wrote.
  {
    name: 'keda', subject: '/O=KEDAORG/CN=keda-operator', ca: 'ca', server: true, client: true,
    san: ['keda-operator', 'keda-metrics-apiserver'].flatMap((svc) => [`DNS:${svc}`, `DNS:${svc}.keda`, `DNS:${svc}.keda.svc`, `DNS:${svc}.keda.svc.${CLUSTER_DOMAIN}`]),
  },
];

const openssl = (args: string[], cwd: string) => execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });

/** Makes whatever is missing under `dir`; a second call on the same folder changes nothing. */
export function ensureClusterPki(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const ca of ['ca', 'front-proxy-ca']) {
    if (fs.existsSync(path.join(dir, `${ca}.crt`))) continue;
    openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${ca}.key`, '-out', `${ca}.crt`, '-days', '3650', '-subj', `/CN=leadforge-${ca}`,
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign,digitalSignature'], dir);
  }
  if (!fs.existsSync(path.join(dir, 'sa.key'))) {
    openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'sa.key'], dir);
    openssl(['pkey', '-in', 'sa.key', '-pubout', '-out', 'sa.pub'], dir);
  }
  for (const leaf of LEAVES) {
    if (fs.existsSync(path.join(dir, `${leaf.name}.crt`))) continue;
    const extensions = [
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      `extendedKeyUsage=${leaf.server ? (leaf.client ? 'serverAuth,clientAuth' : 'serverAuth') : 'clientAuth'}`,
      ...(leaf.san ? [`subjectAltName=${leaf.san.join(',')}`] : []),
    ];
    fs.writeFileSync(path.join(dir, `${leaf.name}.ext`), `${extensions.join('\n')}\n`);
    openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${leaf.name}.key`, '-out', `${leaf.name}.csr`, '-subj', leaf.subject], dir);
    openssl(['x509', '-req', '-in', `${leaf.name}.csr`, '-CA', `${leaf.ca}.crt`, '-CAkey', `${leaf.ca}.key`, '-CAcreateserial', '-out', `${leaf.name}.crt.partial`, '-days', '3650', '-extfile', `${leaf.name}.ext`], dir);
    fs.renameSync(path.join(dir, `${leaf.name}.crt.partial`), path.join(dir, `${leaf.name}.crt`));
    fs.rmSync(path.join(dir, `${leaf.name}.csr`));
    fs.rmSync(path.join(dir, `${leaf.name}.ext`));
  }
}

/** A kubeconfig for one component's certificate against `server`. */
export function kubeconfig(pki: string, user: string, server: string): string {
  const file = (name: string) => path.join(pki, name);
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '  - name: leadforge',
    '    cluster:',
    `      server: ${server}`,
    `      certificate-authority: ${file('ca.crt')}`,
    'users:',
    `  - name: ${user}`,
    '    user:',
    `      client-certificate: ${file(`${user}.crt`)}`,
    `      client-key: ${file(`${user}.key`)}`,
    'contexts:',
    '  - name: leadforge',
    '    context:',
    '      cluster: leadforge',
    `      user: ${user}`,
    'current-context: leadforge',
    '',
  ].join('\n');
}
