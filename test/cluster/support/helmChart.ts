/**
 * Renders and lints charts/leadforge with the real helm: the pinned release the local cluster builds
 * from its Go module (stack/src/cluster/toolchain.ts), built into the cache on first use.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { REPO_ROOT } from '../../../deploy/workspaceServices.ts';
import { binaryPath, buildGoTool } from '../../../stack/src/cluster/toolchain.ts';
import type { K8sObject } from './k8sSchemas.ts';

export const CHART_DIR = path.join(REPO_ROOT, 'charts/leadforge');
export const DEV_VALUES = path.join(CHART_DIR, 'values-dev.yaml');
export const LOCAL_CLUSTER_VALUES = path.join(CHART_DIR, 'values-local-cluster.yaml');

/** Builds helm when the cache has none (a few minutes, once); call it in a beforeAll. */
export async function ensureHelm(): Promise<void> {
  await buildGoTool('helm', { log: () => {} });
}

function helm(args: string[]): string {
  try {
    return execFileSync(binaryPath('helm', 'helm'), args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`helm ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

export function helmLint(extraArgs: string[] = []): string {
  return helm(['lint', '--strict', CHART_DIR, ...extraArgs]);
}

/** `helm template` output as objects. */
export function helmTemplate(extraArgs: string[] = []): K8sObject[] {
  const out = helm(['template', 'leadforge', CHART_DIR, '--namespace', 'leadforge', ...extraArgs]);
  return parseAllDocuments(out).map((doc) => doc.toJSON()).filter((o): o is K8sObject => Boolean(o));
}
