/**
 * OpenTelemetry as a pod runs it: the container entry point with OTEL_EXPORTER_OTLP_ENDPOINT set sends
 * its request spans over OTLP/HTTP (JSON) to a collector, here a local receiver.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '@leadforge/testing';
import { freePort } from '../../stack/src/freePort.ts';
import { REPO_ROOT } from '../../deploy/workspaceServices.ts';

interface OtlpValue { stringValue?: string; intValue?: number | string }
interface OtlpSpan { name: string; attributes: { key: string; value: OtlpValue }[] }
interface OtlpExport { resourceSpans: { resource: { attributes: { key: string; value: OtlpValue }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[] }

const attribute = (list: { key: string; value: OtlpValue }[], key: string) => {
  const value = list.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

describe('tracing (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let service: ChildProcess | undefined;
  let collector: http.Server | undefined;
  afterAll(() => {
    service?.kill('SIGTERM');
    collector?.close();
  });

  it('exports a span per request, named by route and status, under the service\'s name', async () => {
    const exports: { path: string; body: OtlpExport }[] = [];
    collector = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => { body += chunk; });
      request.on('end', () => {
        exports.push({ path: request.url ?? '', body: JSON.parse(body) });
        response.setHeader('content-type', 'application/json');
        response.end('{}');
      });
    });
    const collectorPort = await freePort();
    await new Promise<void>((resolve) => collector!.listen(collectorPort, '127.0.0.1', resolve));

    const port = await freePort();
    service = spawn(process.execPath, ['--import', 'tsx', 'packages/service-runner/src/runService.ts', 'contact'], {
      cwd: REPO_ROOT,
      stdio: 'ignore',
      env: {
        ...process.env, NODE_ENV: 'development', DATA_DIR: ':memory:', DATABASE_URL: '', CONTACT_DATABASE_URL: '', KAFKA_BROKERS: '',
        PORT: String(port), OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`, OTEL_BSP_SCHEDULE_DELAY: '100',
      },
    });
    const base = `http://127.0.0.1:${port}`;
    await waitFor(() => fetch(`${base}/healthz`).then((r) => r.ok), { timeoutMs: 60_000, what: 'the contact service to start' });
    const refused = await fetch(`${base}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(400);

    const spanFor = () => exports.flatMap(({ path, body }) => body.resourceSpans.map((rs) => ({ path, rs })))
      .flatMap(({ path, rs }) => rs.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({ path, resource: rs.resource, span }))))
      .find(({ span }) => span.name === 'request' && attribute(span.attributes, 'http.route') === '/api/contact');
    const found = await waitFor(spanFor, { timeoutMs: 30_000, what: 'a request span for POST /api/contact' });
    expect(found!.path).toBe('/v1/traces');
    expect(attribute(found!.resource.attributes, 'service.name')).toBe('leadforge-contact');
    expect(attribute(found!.span.attributes, 'http.request.method')).toBe('POST');
    expect(attribute(found!.span.attributes, 'http.response.status_code')).toBe(400);
  }, 90_000);
});
