/**
 * The node's programs, in the order they start, each with its configuration written beside it:
 * etcd, the control plane, containerd, kubelet and kube-proxy. All of them run inside the cluster's
 * network and mount namespaces (clusterDaemon.ts), so every address and mount they make stays there.
 */
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import {
  API_PORT, BACKING_PORTS, CLUSTER_DOMAIN, DNS_SERVICE_IP, NODE_IP, NODE_NAME, POD_CIDR, SERVICE_CIDR, type ClusterPaths,
} from './clusterLayout.ts';
import { kubeconfig } from './clusterPki.ts';
import { binaryPath } from './toolchain.ts';

export interface ClusterComponent {
  name: string;
  command: string;
  args: string[];
  /** Answers once the component serves. */
  ready(): Promise<boolean>;
}

export const PAUSE_IMAGE = 'localhost/leadforge/pause:1';
export const API_SERVER_URL = `https://${NODE_IP}:${API_PORT}`;

function tcpAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(1000, () => { socket.destroy(); resolve(false); });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

/** GET over TLS with a client certificate; true on a 200. */
function httpsOk(url: string, pki: string, user = 'admin'): Promise<boolean> {
  return new Promise((resolve) => {
    const request = https.get(url, {
      ca: fs.readFileSync(path.join(pki, 'ca.crt')),
      cert: fs.readFileSync(path.join(pki, `${user}.crt`)),
      key: fs.readFileSync(path.join(pki, `${user}.key`)),
      timeout: 2000,
    }, (res) => { res.resume(); resolve(res.statusCode === 200); });
    request.on('error', () => resolve(false));
    request.on('timeout', () => { request.destroy(); resolve(false); });
  });
}

const yaml = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * Writes every configuration file and returns the components in start order. `registryHostPort` is
 * the host's port of the namespace's registry: images pushed as `localhost:<it>/...` on the host are
 * pulled from the registry itself inside.
 */
export function clusterComponents(paths: ClusterPaths, registryHostPort: number): ClusterComponent[] {
  const { dataDir, runDir, pki, cacheDir } = paths;
  const k8s = (binary: string) => binaryPath('kubernetes', binary, cacheDir);
  const cert = (name: string) => path.join(pki, name);
  const conf = path.join(dataDir, 'config');
  fs.mkdirSync(conf, { recursive: true });
  const kubeconfigOf = (user: string) => {
    const file = path.join(conf, `${user}.kubeconfig`);
    fs.writeFileSync(file, kubeconfig(pki, user, API_SERVER_URL));
    return file;
  };

  // etcd: one member, on the namespace's loopback only.
  const etcd: ClusterComponent = {
    name: 'etcd',
    command: '/usr/bin/etcd',
    args: [
      '--name=leadforge', `--data-dir=${path.join(dataDir, 'etcd')}`,
      '--listen-client-urls=http://127.0.0.1:2379', '--advertise-client-urls=http://127.0.0.1:2379',
      '--listen-peer-urls=http://127.0.0.1:2380', '--initial-advertise-peer-urls=http://127.0.0.1:2380',
      '--initial-cluster=leadforge=http://127.0.0.1:2380', '--listen-metrics-urls=http://127.0.0.1:2381',
      '--quota-backend-bytes=2147483648', '--snapshot-count=10000', '--log-level=warn', '--logger=zap',
    ],
    ready: () => fetch('http://127.0.0.1:2381/health', { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false),
  };

  const apiserver: ClusterComponent = {
    name: 'kube-apiserver',
    command: k8s('kube-apiserver'),
    args: [
      '--etcd-servers=http://127.0.0.1:2379',
      `--advertise-address=${NODE_IP}`, `--secure-port=${API_PORT}`,
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      `--client-ca-file=${cert('ca.crt')}`,
      `--tls-cert-file=${cert('apiserver.crt')}`, `--tls-private-key-file=${cert('apiserver.key')}`,
      `--kubelet-client-certificate=${cert('apiserver-kubelet-client.crt')}`, `--kubelet-client-key=${cert('apiserver-kubelet-client.key')}`,
      // kubectl logs/exec reach the kubelet by its address, never by a name the host's resolver would be asked for.
      '--kubelet-preferred-address-types=InternalIP,Hostname',
      `--service-account-issuer=https://kubernetes.default.svc.${CLUSTER_DOMAIN}`,
      `--service-account-key-file=${cert('sa.pub')}`, `--service-account-signing-key-file=${cert('sa.key')}`,
      '--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction',
      '--allow-privileged=true', '--profiling=false', '--anonymous-auth=true',
      // The aggregation layer (metrics-server, KEDA's external metrics): requests reach the
      // extension servers at their endpoints with the front proxy's certificate.
      `--requestheader-client-ca-file=${cert('front-proxy-ca.crt')}`, '--requestheader-allowed-names=front-proxy-client',
      '--requestheader-extra-headers-prefix=X-Remote-Extra-', '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-username-headers=X-Remote-User',
      `--proxy-client-cert-file=${cert('front-proxy-client.crt')}`, `--proxy-client-key-file=${cert('front-proxy-client.key')}`,
      '--enable-aggregator-routing=true',
      '--event-ttl=1h', '--v=0',
    ],
    ready: () => httpsOk(`${API_SERVER_URL}/readyz`, pki),
  };

  const controllerManagerConfig = kubeconfigOf('controller-manager');
  const controllerManager: ClusterComponent = {
    name: 'kube-controller-manager',
    command: k8s('kube-controller-manager'),
    args: [
      `--kubeconfig=${controllerManagerConfig}`, `--authentication-kubeconfig=${controllerManagerConfig}`, `--authorization-kubeconfig=${controllerManagerConfig}`,
      `--cluster-signing-cert-file=${cert('ca.crt')}`, `--cluster-signing-key-file=${cert('ca.key')}`,
      `--root-ca-file=${cert('ca.crt')}`, `--service-account-private-key-file=${cert('sa.key')}`,
      '--use-service-account-credentials=true', '--leader-elect=false', '--bind-address=127.0.0.1',
      `--service-cluster-ip-range=${SERVICE_CIDR}`, '--allocate-node-cidrs=false',
      '--horizontal-pod-autoscaler-sync-period=10s', '--v=0',
    ],
    ready: () => tcpAnswers('127.0.0.1', 10257),
  };

  const schedulerConfig = kubeconfigOf('scheduler');
  const scheduler: ClusterComponent = {
    name: 'kube-scheduler',
    command: k8s('kube-scheduler'),
    args: [`--kubeconfig=${schedulerConfig}`, `--authentication-kubeconfig=${schedulerConfig}`, `--authorization-kubeconfig=${schedulerConfig}`, '--leader-elect=false', '--bind-address=127.0.0.1', '--v=0'],
    ready: () => tcpAnswers('127.0.0.1', 10259),
  };

  // containerd: its own root and state, the bridge CNI, a pause image built here, and the one
  // setting without which no sandbox starts on this machine (root lacks CAP_SYS_RESOURCE, so runc
  // may not raise a sandbox's oom_score_adj).
  const cniConf = path.join(dataDir, 'cni', 'net.d');
  fs.mkdirSync(cniConf, { recursive: true });
  fs.writeFileSync(path.join(cniConf, '10-leadforge.conflist'), yaml({
    cniVersion: '1.0.0',
    name: 'leadforge',
    plugins: [
      {
        type: 'bridge', bridge: 'cni0', isGateway: true, ipMasq: false, hairpinMode: true,
        ipam: { type: 'host-local', ranges: [[{ subnet: POD_CIDR }]], routes: [{ dst: '0.0.0.0/0' }], dataDir: path.join(dataDir, 'cni', 'ipam') },
      },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  }));
  const registryHosts = path.join(dataDir, 'containerd', 'certs.d');
  const registryName = `localhost:${registryHostPort}`;
  fs.rmSync(registryHosts, { recursive: true, force: true });
  fs.mkdirSync(path.join(registryHosts, registryName), { recursive: true });
  // skaffold pushes to the namespace's own registry through the host's forwarder; containerd pulls from it over plain HTTP.
  const registry = `http://127.0.0.1:${BACKING_PORTS.registry}`;
  fs.writeFileSync(path.join(registryHosts, registryName, 'hosts.toml'), `server = "${registry}"\n\n[host."${registry}"]\n  capabilities = ["pull", "resolve"]\n`);
  const containerdConfig = path.join(conf, 'containerd.toml');
  fs.writeFileSync(containerdConfig, [
    'version = 2',
    `root = "${paths.containerdRoot}"`,
    `state = "${path.join(runDir, 'containerd')}"`,
    'disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper"]',
    '[grpc]',
    `  address = "${paths.containerdSocket}"`,
    '[plugins."io.containerd.internal.v1.opt"]',
    `  path = "${path.join(paths.containerdRoot, 'opt')}"`,
    '[plugins."io.containerd.grpc.v1.cri"]',
    `  sandbox_image = "${PAUSE_IMAGE}"`,
    '  restrict_oom_score_adj = true',
    '  enable_cdi = false',
    '  [plugins."io.containerd.grpc.v1.cri".containerd]',
    '    snapshotter = "overlayfs"',
    '    default_runtime_name = "runc"',
    '    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]',
    '      runtime_type = "io.containerd.runc.v2"',
    '      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]',
    '        BinaryName = "/usr/sbin/runc"',
    '        SystemdCgroup = false',
    '  [plugins."io.containerd.grpc.v1.cri".cni]',
    '    bin_dir = "/usr/lib/cni"',
    `    conf_dir = "${cniConf}"`,
    '  [plugins."io.containerd.grpc.v1.cri".registry]',
    `    config_path = "${registryHosts}"`,
    '',
  ].join('\n'));
  const containerd: ClusterComponent = {
    name: 'containerd',
    command: '/usr/bin/containerd',
    args: ['--config', containerdConfig, '--log-level', 'warn'],
    ready: async () => fs.existsSync(paths.containerdSocket) && (await new Promise<boolean>((resolve) => {
      const socket = net.connect(paths.containerdSocket);
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
    })),
  };

  // kubelet: cgroup v1 here, so the cgroupfs driver, and pods under a cgroup of the cluster's own
  // (removed at down). No resolver of the machine's: pods' DNS is CoreDNS, which has no upstream.
  const kubeletRoot = path.join(dataDir, 'kubelet');
  const emptyResolvConf = path.join(conf, 'resolv.conf');
  fs.writeFileSync(emptyResolvConf, '');
  const kubeletConfig = path.join(conf, 'kubelet.yaml');
  fs.writeFileSync(kubeletConfig, yaml({
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    address: NODE_IP,
    port: 10250,
    readOnlyPort: 0,
    authentication: { anonymous: { enabled: false }, webhook: { enabled: true }, x509: { clientCAFile: cert('ca.crt') } },
    authorization: { mode: 'Webhook' },
    tlsCertFile: cert('kubelet.crt'),
    tlsPrivateKeyFile: cert('kubelet.key'),
    cgroupDriver: 'cgroupfs',
    cgroupRoot: `/${CGROUP_ROOT}`,
    failCgroupV1: false,
    failSwapOn: false,
    clusterDNS: [DNS_SERVICE_IP],
    clusterDomain: CLUSTER_DOMAIN,
    resolvConf: emptyResolvConf,
    containerRuntimeEndpoint: `unix://${paths.containerdSocket}`,
    podLogsDir: path.join(dataDir, 'pod-logs'),
    serializeImagePulls: false,
    // Images are imported, never pulled: a kubelet that deleted one could not get it back.
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    evictionHard: { 'memory.available': '200Mi', 'nodefs.available': '2%', 'imagefs.available': '2%' },
    rotateCertificates: false,
    serverTLSBootstrap: false,
    protectKernelDefaults: false,
    maxPods: 110,
    shutdownGracePeriod: '0s',
  }));
  const kubelet: ClusterComponent = {
    name: 'kubelet',
    command: k8s('kubelet'),
    args: [
      `--config=${kubeletConfig}`, `--kubeconfig=${kubeconfigOf('kubelet-client')}`, `--root-dir=${kubeletRoot}`,
      `--hostname-override=${NODE_NAME}`, `--node-ip=${NODE_IP}`, '--v=0',
    ],
    ready: () => fetch('http://127.0.0.1:10248/healthz', { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false),
  };

  const kubeProxyConfig = path.join(conf, 'kube-proxy.yaml');
  fs.writeFileSync(kubeProxyConfig, yaml({
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    clientConnection: { kubeconfig: kubeconfigOf('kube-proxy') },
    mode: 'iptables',
    clusterCIDR: POD_CIDR,
    hostnameOverride: NODE_NAME,
    bindAddress: NODE_IP,
    metricsBindAddress: '127.0.0.1:10249',
    healthzBindAddress: '127.0.0.1:10256',
    nodePortAddresses: [`${NODE_IP}/32`],
    // Leave the kernel's connection-tracking settings as they are (they are not the namespace's alone).
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
  }));
  const kubeProxy: ClusterComponent = {
    name: 'kube-proxy',
    command: k8s('kube-proxy'),
    args: [`--config=${kubeProxyConfig}`, '--v=0'],
    ready: () => fetch('http://127.0.0.1:10256/healthz', { signal: AbortSignal.timeout(2000) }).then((r) => r.status === 200 || r.status === 503, () => false),
  };

  return [etcd, apiserver, controllerManager, scheduler, containerd, kubelet, kubeProxy];
}

/** The cgroup (in every v1 hierarchy) under which kubelet puts the pods. */
export const CGROUP_ROOT = 'leadforge';
