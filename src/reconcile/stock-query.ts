import { type BackoffPolicy, type RetryOptions, retryWithBackoff } from '../lib/backoff.js';
import type { Clock } from '../lib/clock.js';
import { errorMessage } from '../lib/errors.js';
import { type WmsClient, WmsError } from '../wms-client/index.js';
import { figuresOf, type Observation } from './compare.js';

/** Calls per WMS request (the first included) and the delays between them (lib/backoff). */
export interface RetryPolicy extends BackoffPolicy {
  attempts: number;
}

/**
 * 3 calls, up to 250 ms then up to 500 ms apart (full jitter: parallel batches that failed together
 * do not retry together), or the WMS's Retry-After when longer, up to 10 s.
 */
export const STOCK_RETRY: RetryPolicy = { attempts: 3, baseMs: 250, maxMs: 10_000 };

/** A batch that kept failing (after its retries, or at once for an error retrying cannot fix). */
export class BatchFailed extends Error {
  /** Requests the batch made before giving up (set by `queryStock`). */
  requests = 0;

  constructor(
    readonly products: string[],
    override readonly cause: unknown,
    readonly attempts: number,
  ) {
    super(errorMessage(cause));
    this.name = 'BatchFailed';
  }
}

export interface QueryDeps {
  client: WmsClient;
  clock: Clock;
  retry: RetryPolicy;
  signal?: AbortSignal | undefined;
}

export interface QueryResult {
  observations: Observation[];
  /** Products the WMS answered 404 for. */
  notFound: string[];
  requests: number;
}

/** How reconciliation retries a WMS request: a 404 is an answer (the batch splits), not a failure. */
export function wmsRetry(deps: Pick<QueryDeps, 'retry' | 'signal'>): RetryOptions {
  return {
    attempts: deps.retry.attempts,
    policy: deps.retry,
    retryable: (err) => err instanceof WmsError && err.retryable && err.status !== 404,
    retryAfterMs: (err) => (err instanceof WmsError ? err.retryAfterMs : undefined),
    signal: deps.signal,
  };
}

/**
 * Endpoint 7 for a batch of products, grouped by lot. The WMS answers 404 for the whole request
 * when any product is unknown, so a 404 splits the batch in halves until the unknown products
 * are alone (reported, not fatal). Throws `BatchFailed` when a request keeps failing.
 */
export async function queryStock(deps: QueryDeps, products: string[]): Promise<QueryResult> {
  const result: QueryResult = { observations: [], notFound: [], requests: 0 };
  try {
    await ask(deps, products, result);
  } catch (err) {
    if (err instanceof BatchFailed) err.requests = result.requests;
    throw err;
  }
  return result;
}

async function ask(deps: QueryDeps, products: string[], result: QueryResult): Promise<void> {
  if (products.length === 0) return;
  let sentAt = deps.clock.now();
  let attempts = 0;
  try {
    const rows = await retryWithBackoff(() => {
      attempts += 1;
      result.requests += 1;
      // The cut of the expected figures: the moment the request that answered was sent.
      sentAt = deps.clock.now();
      return deps.client.products.stock({ products: products.map((product) => ({ product })), groupedByLot: true });
    }, wmsRetry(deps));
    result.observations.push({ products, figures: figuresOf(products, rows), sentAt, answeredAt: deps.clock.now() });
  } catch (err) {
    if (err instanceof WmsError && err.status === 404) {
      if (products.length === 1) {
        result.notFound.push(products[0]!);
        return;
      }
      const half = Math.ceil(products.length / 2);
      await ask(deps, products.slice(0, half), result);
      await ask(deps, products.slice(half), result);
      return;
    }
    if (deps.signal?.aborted) throw err;
    throw new BatchFailed(products, err, attempts);
  }
}
