import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Attributes } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { KitConfig } from './config/kitConfig.ts';

let started = false;

/** OpenTelemetry: does nothing unless OTEL_EXPORTER_OTLP_ENDPOINT is set. */
export async function startTracing(config: KitConfig, log: Logger): Promise<void> {
  if (!config.otlpEndpoint || started) return;
  started = true;
  const [{ NodeSDK }, { OTLPTraceExporter }, { FastifyOtelInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@fastify/otel'),
  ]);
  const sdk = new NodeSDK({
    serviceName: `leadforge-${config.service}`,
    traceExporter: new OTLPTraceExporter({ url: `${config.otlpEndpoint.replace(/\/$/, '')}/v1/traces` }),
    instrumentations: [new FastifyOtelInstrumentation({ registerOnInitialization: true })],
  });
  sdk.start();
  log.info({ endpoint: config.otlpEndpoint }, 'tracing enabled');
}

/** The W3C traceparent of the work in progress, for an event it announces; none while tracing is off. */
export function activeTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/**
 * Runs `work` in a span that continues the trace `traceparent` names (an event's, a stored job's), so
 * what it does and the events it emits join the trace that caused it. A no-op while tracing is off.
 */
export function inTraceOf<T>(traceparent: string | undefined, name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  const parent = traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : context.active();
  return trace.getTracer('leadforge').startActiveSpan(name, { kind: SpanKind.CONSUMER, attributes }, parent, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
