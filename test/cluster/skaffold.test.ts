import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Ajv } from 'ajv';
import { SERVICES } from '@leadforge/contracts';
import { REPO_ROOT, workspaceServices } from '../../deploy/workspaceServices.ts';

const SCHEMA = path.join(REPO_ROOT, 'deploy/skaffold/skaffold-v4beta13.subset.schema.json');
const config = parse(fs.readFileSync(path.join(REPO_ROOT, 'skaffold.yaml'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(fs.readFileSync(SCHEMA, 'utf8')));

interface Artifact { image: string; context?: string; docker?: { dockerfile?: string; buildArgs?: Record<string, string> } }
const artifacts: Artifact[] = config.build.artifacts;

describe('skaffold.yaml', () => {
  it('is valid against skaffold\'s published schema (vendored, v4beta13)', () => {
    expect(config.apiVersion).toBe('skaffold/v4beta13');
    expect(validate(config) ? [] : validate.errors).toEqual([]);
  });

  it('the schema check does catch unknown fields', () => {
    const broken = structuredClone(config);
    broken.build.artifacts[0].docker.dockerFile = 'typo';
    expect(validate(broken)).toBe(false);
  });

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

  it('has a kind profile that deploys with values-dev.yaml without pushing', () => {
    const kind = config.profiles.find((p: { name: string }) => p.name === 'kind');
    expect(kind.activation[0].kubeContext).toBe('kind-leadforge');
    expect(kind.patches).toContainEqual({ op: 'add', path: '/build/local/push', value: false });
    expect(JSON.stringify(kind.patches)).toContain('charts/leadforge/values-dev.yaml');
  });
});
