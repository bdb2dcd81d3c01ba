import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { SERVICES } from '@leadforge/contracts';
import { REPO_ROOT, workspaceServices } from '../../deploy/workspaceServices.ts';
import { binaryPath, buildGoTool, SKAFFOLD_VERSION } from '../../stack/src/cluster/toolchain.ts';

const run = promisify(execFile);
const config = parse(fs.readFileSync(path.join(REPO_ROOT, 'skaffold.yaml'), 'utf8'));

interface Artifact { image: string; context?: string; docker?: { dockerfile?: string; buildArgs?: Record<string, string> }; custom?: { buildCommand: string; dependencies: { paths: string[] } } }
const artifacts: Artifact[] = config.build.artifacts;

/** skaffold's own reading of a config (`skaffold diagnose --yaml-only`): the effective config, profile applied. */
async function skaffoldReads(file: string, profile?: string): Promise<Record<string, any>> {
  const { stdout } = await run(binaryPath('skaffold', 'skaffold'), ['diagnose', '--yaml-only', '--filename', file, ...(profile ? ['--profile', profile] : [])], {
    cwd: REPO_ROOT, env: { ...process.env, SKAFFOLD_UPDATE_CHECK: 'false', SKAFFOLD_COLLECT_METRICS: 'false' },
  });
  return parseAllDocuments(stdout)[0]!.toJSON();
}

describe('skaffold.yaml', () => {
  // skaffold itself, the pinned release the local cluster builds (stack/src/cluster/toolchain.ts).
  beforeAll(() => buildGoTool('skaffold', { log: () => {} }), 1_800_000);

  it(`is a config skaffold ${SKAFFOLD_VERSION} reads, as it is and with each profile`, async () => {
    expect(config.apiVersion).toBe('skaffold/v4beta13');
    for (const profile of [undefined, 'kind', 'local-cluster']) {
      const effective = await skaffoldReads('skaffold.yaml', profile);
      expect(effective.build.artifacts).toHaveLength(artifacts.length);
    }
  }, 60_000);

  it('skaffold refuses a config with an unknown field', async () => {
    const broken = structuredClone(config);
    broken.build.artifacts[0].docker.dockerFile = 'typo';
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadforge-skaffold-'));
    const file = path.join(dir, 'skaffold.yaml');
    fs.writeFileSync(file, stringify(broken));
    try {
      await expect(skaffoldReads(file)).rejects.toThrow(/dockerFile/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('points every artifact at a Dockerfile that exists, with the repository root as context', () => {
    for (const artifact of artifacts) {
      const dockerfile = path.join(REPO_ROOT, artifact.context ?? '.', artifact.docker?.dockerfile ?? 'Dockerfile');
      expect(fs.existsSync(dockerfile), `${artifact.image}: ${dockerfile}`).toBe(true);
      expect(artifact.context ?? '.', artifact.image).toBe('.');
    }
  });

  it('builds an image for every service of the route table (so every workspace service), the gateway and the web app', () => {
    const images = artifacts.map((a) => a.image);
    for (const service of new Set([...SERVICES, ...workspaceServices()])) {
      const artifact = artifacts.find((a) => a.image === `leadforge/${service}`);
      expect(artifact, `add an artifact leadforge/${service} to skaffold.yaml`).toBeDefined();
      expect(artifact!.docker?.buildArgs?.SERVICE).toBe(service);
    }
    expect(images).toContain('leadforge/gateway');
    expect(images).toContain('leadforge/web');
  });

  it('hands every built image to the chart and forwards the gateway to localhost:8080', () => {
    const release = config.deploy.helm.releases[0];
    expect(release.chartPath).toBe('charts/leadforge');
    const templates = Object.keys(release.setValueTemplates);
    for (const service of SERVICES) {
      expect(templates).toContain(`services.${service}.image.repository`);
      expect(templates).toContain(`services.${service}.image.tag`);
    }
    for (const workload of ['gateway', 'web']) expect(templates).toContain(`${workload}.image.repository`);
    expect(config.portForward).toContainEqual(expect.objectContaining({ resourceType: 'service', resourceName: 'gateway', localPort: 8080 }));
  });

  it('has a local-cluster profile (npm run cluster:dev): every image built by scripts/images.mjs from its own files, pushed, deployed with the cluster\'s values', async () => {
    const effective = await skaffoldReads('skaffold.yaml', 'local-cluster');
    expect(effective.build.local).toMatchObject({ push: true });
    for (const artifact of effective.build.artifacts as Artifact[]) {
      const name = artifact.image.replace(/^leadforge\//, '');
      expect({ image: artifact.image, docker: artifact.docker, command: artifact.custom?.buildCommand }).toEqual({ image: artifact.image, docker: undefined, command: `node scripts/images.mjs --skaffold ${name}` });
      const own = name === 'gateway' ? 'gateway/**' : name === 'web' ? 'web/**' : `services/${name}/**`;
      expect(artifact.custom!.dependencies.paths).toContain(own);
      // No other service's folder: a change there must not rebuild this one.
      expect(artifact.custom!.dependencies.paths.filter((p) => p.startsWith('services/') && p !== own)).toEqual([]);
    }
    // skaffold makes them absolute, and expands the launcher's values file (given relative to the repository) when it deploys.
    expect(effective.deploy.helm.releases[0].valuesFiles.map((file: string) => path.relative(REPO_ROOT, file))).toEqual(['charts/leadforge/values-dev.yaml', 'charts/leadforge/values-local-cluster.yaml', '{{.LEADFORGE_RELEASE_VALUES}}']);
    expect(effective.portForward ?? []).toEqual([]);
  }, 60_000);

  it('has a kind profile that deploys with values-dev.yaml without pushing', () => {
    const kind = config.profiles.find((p: { name: string }) => p.name === 'kind');
    expect(kind.activation[0].kubeContext).toBe('kind-leadforge');
    expect(kind.patches).toContainEqual({ op: 'add', path: '/build/local/push', value: false });
    expect(JSON.stringify(kind.patches)).toContain('charts/leadforge/values-dev.yaml');
  });
});
