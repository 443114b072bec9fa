import {
  type Context,
  context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapSetter,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { errorMessage } from './errors.js';
import {
  type Attributes,
  type SpanHandle,
  type SpanKindName,
  type Tracing,
  type TracingSettings,
  validTraceparent,
} from './trace-context.js';

const KINDS: Record<SpanKindName, SpanKind> = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  internal: SpanKind.INTERNAL,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
};

const getter: TextMapGetter<Record<string, string>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};
const setter: TextMapSetter<Record<string, string>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

let contextManagerSet = false;

function clean(attributes: Attributes | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(attributes ?? {})) if (v !== undefined) out[k] = v;
  return out;
}

function handle(span: Span): SpanHandle {
  return {
    setAttributes: (attributes) => span.setAttributes(clean(attributes)),
    rename: (name) => span.updateName(name),
    fail: (err) => span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(err) }),
  };
}

/**
 * The OpenTelemetry SDK behind `Tracing`: spans batched to an OTLP/HTTP (JSON) endpoint, context
 * carried across awaits by AsyncLocalStorage, W3C trace context in and out. Loaded only when an
 * endpoint is set (lib/tracing.ts).
 */
export function otelTracing(settings: TracingSettings & { tracesUrl: string }): Tracing {
  if (!contextManagerSet) {
    // One per process: every tracer shares the async context.
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    contextManagerSet = true;
  }
  const exporter = new OTLPTraceExporter({ url: settings.tracesUrl, headers: settings.headers });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      'service.name': settings.serviceName,
      'service.version': settings.serviceVersion,
    }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('wms-sync', settings.serviceVersion);
  const propagator = new W3CTraceContextPropagator();

  const parentContext = (parent: string | null | undefined): Context => {
    const traceparent = validTraceparent(parent);
    if (!traceparent) return context.active();
    return propagator.extract(ROOT_CONTEXT, { traceparent }, getter);
  };

  const traceparentOf = (ctx: Context): string | undefined => {
    const carrier: Record<string, string> = {};
    propagator.inject(ctx, carrier, setter);
    return carrier.traceparent;
  };

  return {
    enabled: true,
    start(name, options) {
      const span = tracer.startSpan(
        name,
        { kind: KINDS[options.kind ?? 'internal'], attributes: clean(options.attributes) },
        parentContext(options.parent),
      );
      return {
        traceparent: traceparentOf(trace.setSpan(ROOT_CONTEXT, span)),
        end(err) {
          if (err !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(err) });
          span.end();
        },
      };
    },
    span(name, options, fn) {
      return tracer.startActiveSpan(
        name,
        { kind: KINDS[options.kind ?? 'internal'], attributes: clean(options.attributes) },
        parentContext(options.parent),
        async (span) => {
          try {
            return await fn(handle(span));
          } catch (err) {
            span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(err) });
            throw err;
          } finally {
            span.end();
          }
        },
      );
    },
    traceparent() {
      if (!trace.getSpan(context.active())) return undefined;
      return traceparentOf(context.active());
    },
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
