/** What tracing is, apart from how it is done: the types both lib/tracing.ts and lib/otel.ts share. */
export type SpanKindName = 'server' | 'client' | 'internal' | 'producer' | 'consumer';
export type Attributes = Record<string, string | number | boolean | undefined>;

export interface SpanHandle {
  setAttributes(attributes: Attributes): void;
  /** Names the span once what it did is known (an HTTP span by its matched route). */
  rename(name: string): void;
  /** Marks the span failed with the error's message (the span ends when its function does). */
  fail(err: unknown): void;
}

export interface SpanOptions {
  kind?: SpanKindName;
  /** A W3C traceparent to continue (a header that came in, or one stored with an event or job); the active span otherwise. */
  parent?: string | null | undefined;
  attributes?: Attributes;
}

/** A span started by hand, for work whose start and end are not one function's (a batch's events). */
export interface OpenSpan {
  /** This span's traceparent: children started with it as `parent`, or stored for later work. */
  readonly traceparent: string | undefined;
  /** Ends the span, failed when `err` is given. */
  end(err?: unknown): void;
}

export interface Tracing {
  readonly enabled: boolean;
  /** Starts a span without making it active (see `OpenSpan`). */
  start(name: string, options: SpanOptions): OpenSpan;
  /** Runs `fn` inside a new span (a child of `parent`, else of the active span); a throw fails the span. */
  span<T>(name: string, options: SpanOptions, fn: (span: SpanHandle) => Promise<T>): Promise<T>;
  /** The active span's traceparent, to send on a call or store with work done later; undefined when off or outside a span. */
  traceparent(): string | undefined;
  /** Sends the spans still buffered. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export interface TracingSettings {
  tracesUrl: string | undefined;
  headers: Record<string, string>;
  serviceName: string;
  serviceVersion: string;
}

/** A W3C traceparent (version 00), or undefined for anything else: what is stored and continued is checked first. */
export function validTraceparent(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const v = value.trim().toLowerCase();
  if (!/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/.test(v)) return undefined;
  if (/^00-0{32}-/.test(v) || /-0{16}-[0-9a-f]{2}$/.test(v)) return undefined;
  return v;
}
