/** What the launcher and the cluster's daemon (clusterDaemon.ts) say to each other over the IPC channel. */

/** A host loopback port whose connections the daemon forwards to an address inside the namespace. */
export interface ForwardedPort {
  name: 'gateway' | 'apiserver' | 'prometheus' | 'registry';
  hostPort: number;
  targetHost: string;
  targetPort: number;
}

/** Launcher to daemon: a listening socket on the host, sent with the message as its handle. */
export type ParentMessage = { kind: 'listener'; name: ForwardedPort['name'] };

export type DaemonMessage =
  | { kind: 'progress'; line: string }
  | { kind: 'ready' }
  | { kind: 'failed'; error: string };
