/**
 * Tracing as the rooms see it: spans around work, and the W3C `traceparent` to send, store and
 * continue. Off (every call a plain pass-through, nothing loaded) unless an OTLP endpoint is set;
 * on, `lib/otel.ts` and the OpenTelemetry packages are imported then, and only then.
 */
import type { OpenSpan, SpanHandle, Tracing, TracingSettings } from './trace-context.js';

export type {
  Attributes,
  OpenSpan,
  SpanHandle,
  SpanKindName,
  SpanOptions,
  Tracing,
  TracingSettings,
} from './trace-context.js';
export { validTraceparent } from './trace-context.js';

const NO_SPAN: SpanHandle = { setAttributes: () => {}, rename: () => {}, fail: () => {} };
const NO_OPEN_SPAN: OpenSpan = { traceparent: undefined, end: () => {} };

export const noTracing: Tracing = {
  enabled: false,
  start: () => NO_OPEN_SPAN,
  span: (_name, _options, fn) => fn(NO_SPAN),
  traceparent: () => undefined,
  flush: async () => {},
  shutdown: async () => {},
};

/** The process's tracing: `noTracing` without an endpoint; with one, the OpenTelemetry SDK, imported now. */
export async function createTracing(settings: TracingSettings): Promise<Tracing> {
  if (!settings.tracesUrl) return noTracing;
  const { otelTracing } = await import('./otel.js');
  return otelTracing({ ...settings, tracesUrl: settings.tracesUrl });
}
