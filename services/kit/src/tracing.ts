import type { Logger } from 'pino';
import type { KitConfig } from './config.ts';

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
