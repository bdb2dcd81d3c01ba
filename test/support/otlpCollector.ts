import http from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

/**
 * A trace collector on loopback for tests: takes OTLP/HTTP exports as the services send them (JSON)
 * and as Envoy sends them (protobuf), and keeps every span with its service's name.
 */
export interface CollectedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
}

// The part of opentelemetry/proto/collector/trace/v1 (and the messages it uses) a span needs here.
const OTLP_PROTO = `
syntax = "proto3";
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue { oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; } }
message ScopeSpans { repeated Span spans = 2; }
message Span { bytes trace_id = 1; bytes span_id = 2; bytes parent_span_id = 4; string name = 5; int32 kind = 6; repeated KeyValue attributes = 9; }
`;
const ExportRequest = protobuf.parse(OTLP_PROTO, { keepCase: false }).root.lookupType('ExportTraceServiceRequest');

interface Attribute { key: string; value?: { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number } }

interface ExportJson {
  resourceSpans?: Array<{
    resource?: { attributes?: Attribute[] };
    scopeSpans?: Array<{ spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind?: number; attributes?: Attribute[] }> }>;
  }>;
}

/** Protobuf bytes fields decode as bytes; JSON exports give them as hex already. */
const hex = (value: unknown): string => (typeof value === 'string' ? value : value ? Buffer.from(value as Uint8Array).toString('hex') : '');

function spansOf(body: ExportJson): CollectedSpan[] {
  return (body.resourceSpans ?? []).flatMap((rs) => {
    const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value?.stringValue ?? '';
    return (rs.scopeSpans ?? []).flatMap((scope) => (scope.spans ?? []).map((span) => ({
      service,
      name: span.name,
      traceId: hex(span.traceId),
      spanId: hex(span.spanId),
      parentSpanId: hex(span.parentSpanId),
      kind: Number(span.kind ?? 0),
      attributes: Object.fromEntries((span.attributes ?? []).map(({ key, value }) => [key, value?.stringValue ?? value?.boolValue ?? Number(value?.intValue ?? value?.doubleValue)])),
    })));
  });
}

export async function startOtlpCollector() {
  const spans: CollectedSpan[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      try {
        const body = String(request.headers['content-type']).includes('protobuf')
          ? ExportRequest.toObject(ExportRequest.decode(raw), { defaults: false }) as ExportJson
          : JSON.parse(raw.toString('utf8')) as ExportJson;
        spans.push(...spansOf(body));
      } catch {
        response.statusCode = 400;
      }
      response.setHeader('content-type', String(request.headers['content-type'] ?? 'application/json'));
      response.end(String(request.headers['content-type']).includes('protobuf') ? '' : '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    /** Every span of the traces one of whose spans matches. */
    traceOf(match: (span: CollectedSpan) => boolean): CollectedSpan[] {
      const first = spans.find(match);
      return first ? spans.filter((span) => span.traceId === first.traceId) : [];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type OtlpCollector = Awaited<ReturnType<typeof startOtlpCollector>>;
