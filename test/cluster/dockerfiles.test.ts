/**
 * A small Dockerfile lint (hadolint is not available here): pinned base images, a non-root final
 * user, production-only dependencies in what ships, NODE_ENV=production for Node images, a health
 * check, and every COPY source present in the repository.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../deploy/workspaceServices.ts';

interface Stage { name?: string; base: string; lines: string[] }

/** Joins continuation lines and splits the file into stages; ARG defaults resolve FROM lines. */
function parseDockerfile(text: string): { args: Record<string, string>; stages: Stage[] } {
  const logical = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of logical) {
    const from = line.match(/^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i);
    if (from) {
      const base = from[1].replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a, b) => args[a ?? b] ?? `<unset ${a ?? b}>`);
      stages.push({ name: from[2], base, lines: [] });
      continue;
    }
    const arg = line.match(/^ARG\s+(\w+)(?:=(\S+))?/i);
    if (arg && !stages.length && arg[2]) args[arg[1]] = arg[2];
    stages.at(-1)?.lines.push(line);
  }
  return { args, stages };
}

function lint(file: string): string[] {
  const problems: string[] = [];
  const { stages } = parseDockerfile(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'));
  const stageNames = new Set(stages.map((s) => s.name).filter(Boolean));
  for (const stage of stages) {
    if (stageNames.has(stage.base)) continue;
    const tag = stage.base.includes('@') ? 'digest' : stage.base.split('/').pop()!.split(':')[1];
    if (!tag) problems.push(`FROM ${stage.base}: no tag (pin a version)`);
    else if (tag === 'latest') problems.push(`FROM ${stage.base}: "latest" is not a version`);
  }
  const final = stages.at(-1)!;
  const user = [...final.lines].reverse().find((l) => /^USER\s/i.test(l))?.split(/\s+/)[1];
  if (!user) problems.push('the final stage sets no USER (it would run as root)');
  else if (/^(root|0)(:|$)/.test(user)) problems.push(`USER ${user} is root`);
  if (!final.lines.some((l) => /^HEALTHCHECK\s+/i.test(l))) problems.push('no HEALTHCHECK in the final stage');
  if (/^node:/.test(final.base) && !final.lines.some((l) => /^ENV\s.*NODE_ENV=production/.test(l))) problems.push('a Node image without NODE_ENV=production');
  // What ships: the final stage, and every stage it copies node_modules (or a whole app) from.
  const shipped = new Set<Stage>([final]);
  for (const line of final.lines) {
    const copy = line.match(/^COPY\s+--from=(\S+)\s+(\S+)/i);
    if (!copy) continue;
    const source = stages.find((s) => s.name === copy[1]);
    if (source && !/\/dist\/?$|\/manifests\/?$|\.ya?ml$|\/src\//.test(copy[2])) shipped.add(source);
  }
  for (const stage of shipped) {
    for (const line of stage.lines) {
      if (/\bnpm\s+(ci|install|i)\b/.test(line) && !/--omit=dev|--production/.test(line)) problems.push(`stage ${stage.name ?? '(final)'} ships a dev install: ${line.slice(0, 80)}`);
    }
  }
  return problems;
}

const DOCKERFILES = (() => {
  const skaffold = parse(fs.readFileSync(path.join(REPO_ROOT, 'skaffold.yaml'), 'utf8'));
  return [...new Set<string>(skaffold.build.artifacts.map((a: { docker?: { dockerfile?: string } }) => a.docker?.dockerfile ?? 'Dockerfile'))];
})();

describe('Dockerfiles of every image', () => {
  for (const file of DOCKERFILES) {
    it(`${file}: pinned bases, non-root user, production dependencies only, health check`, () => {
      expect(lint(file)).toEqual([]);
    });
  }

  it('the lint does catch a root user, a latest tag and a dev install', () => {
    const dir = fs.mkdtempSync(path.join(REPO_ROOT, 'node_modules/.cache/dockerfile-lint-'));
    const bad = path.join(dir, 'Dockerfile');
    fs.writeFileSync(bad, 'FROM node:latest AS deps\nRUN npm ci\nFROM node:20-slim\nCOPY --from=deps /app/node_modules ./node_modules\nUSER root\n');
    const problems = lint(path.relative(REPO_ROOT, bad)).join('\n');
    fs.rmSync(dir, { recursive: true });
    expect(problems).toContain('"latest" is not a version');
    expect(problems).toContain('USER root is root');
    expect(problems).toContain('ships a dev install');
    expect(problems).toContain('no HEALTHCHECK');
    expect(problems).toContain('NODE_ENV=production');
  });

  it('copies only files that exist, and .dockerignore keeps local state and secrets out of the context', () => {
    for (const file of ['deploy/docker/service.Dockerfile', 'web/Dockerfile']) {
      const { stages } = parseDockerfile(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'));
      for (const line of stages.flatMap((s) => s.lines)) {
        const copy = line.match(/^COPY\s+(?!--from)(\S+)\s+\S+$/i);
        if (copy && copy[1] !== '.') expect(fs.existsSync(path.join(REPO_ROOT, copy[1])), `${file}: ${line}`).toBe(true);
      }
    }
    const ignore = fs.readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['**/node_modules', '.data', '.git', '**/.env']) expect(ignore).toContain(entry);
  });
});
