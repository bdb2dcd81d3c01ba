/**
 * Where a local cluster lives: its addresses inside its network namespace, and its folders on disk.
 * Every address here exists only inside the namespace (198.18.0.0/15 is the range set aside for
 * network tests, RFC 2544): the namespace has no default route and no link to the machine's network,
 * so nothing in the cluster can reach an address outside the machine.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { clusterCacheDir } from './toolchain.ts';

export const NODE_NAME = 'leadforge-node';
/** The node's address, on a veth interface inside the namespace. */
export const NODE_IP = '198.18.0.2';
export const NODE_CIDR = '198.18.0.0/24';
/** Pods, on the bridge CNI's cni0 (gateway .1). */
export const POD_CIDR = '198.18.16.0/24';
export const SERVICE_CIDR = '198.18.32.0/24';
/** The `kubernetes` Service's ClusterIP (the first of the range). */
export const API_SERVICE_IP = '198.18.32.1';
export const DNS_SERVICE_IP = '198.18.32.10';
export const API_PORT = 6443;
export const CLUSTER_DOMAIN = 'cluster.local';
/** Ports of the servers the chart's external modes use, on NODE_IP. */
export const BACKING_PORTS = { postgres: 5432, redis: 6379, kafka: 9092, kafkaController: 9093, prometheus: 9090, registry: 5000 } as const;
/** The gateway Service's NodePort, which the host's forwarder reaches. */
export const GATEWAY_NODE_PORT = 30080;
export const RELEASE_NAME = 'leadforge';
export const RELEASE_NAMESPACE = 'leadforge';

/** Host-wide settings kubelet rewrites when it starts (no flag stops it): saved before, put back after. */
export const KUBELET_HOST_SYSCTLS = ['vm/overcommit_memory', 'vm/panic_on_oom', 'kernel/panic', 'kernel/panic_on_oops', 'kernel/keys/root_maxkeys', 'kernel/keys/root_maxbytes'];

export interface ClusterPaths {
  /** `$DATA_DIR/cluster`: certificates, etcd, kubelet and containerd state, logs, cluster.json. */
  dataDir: string;
  /** Short runtime folder for sockets (a unix socket path holds 107 bytes). */
  runDir: string;
  cacheDir: string;
  pki: string;
  logs: string;
  daemonState: string;
  clusterJson: string;
  /** kubeconfig for programs on the host (the apiserver through its forwarder). */
  hostKubeconfig: string;
  containerdSocket: string;
  /**
   * containerd's content and snapshots: in the cache folder, so images imported once serve every
   * later cluster (one runs at a time: its addresses and cgroup are fixed). Containers are not kept.
   */
  containerdRoot: string;
}

export function clusterPaths(env: NodeJS.ProcessEnv = process.env): ClusterPaths {
  const dataDir = path.resolve(env.DATA_DIR || '.data', 'cluster');
  const id = crypto.createHash('sha256').update(dataDir).digest('hex').slice(0, 10);
  const runDir = path.join('/run/leadforge', id);
  return {
    dataDir,
    runDir,
    cacheDir: clusterCacheDir(env),
    pki: path.join(dataDir, 'pki'),
    logs: path.join(dataDir, 'logs'),
    daemonState: path.join(dataDir, 'daemon.json'),
    clusterJson: path.join(dataDir, 'cluster.json'),
    hostKubeconfig: path.join(dataDir, 'kubeconfig'),
    containerdSocket: path.join(runDir, 'containerd.sock'),
    containerdRoot: path.join(clusterCacheDir(env), 'containerd'),
  };
}
