import picomatch from 'picomatch';

/** `api`: requests to the emulated WMS (API and token endpoints); `webhook`: the webhooks it sends. */
export type FaultScope = 'api' | 'webhook';

export interface FaultInput {
  scope?: FaultScope | undefined;
  /** HTTP method to match (any when left out). */
  method?: string | undefined;
  /** A picomatch glob over the request path (`api`) or the webhook URL's path (`webhook`). */
  path: string;
  /** Answer this status instead of handling the request (`api` only). */
  status?: number | undefined;
  /** Wait this long first (then handle, answer `status`, or drop). */
  latencyMs?: number | undefined;
  /** Close the connection without answering (`api`), or do not send at all (`webhook`). */
  drop?: boolean | undefined;
  /** Affect only the next `count` matching requests (unlimited when left out). */
  count?: number | undefined;
  /** Affect this fraction (0-1) of matching requests (all when left out). */
  rate?: number | undefined;
}

export interface Fault extends Omit<FaultInput, 'scope'> {
  id: number;
  scope: FaultScope;
  /** Requests affected so far. */
  hits: number;
  /** Requests still to affect; null when unlimited. */
  remaining: number | null;
}

/**
 * The faults injected through the control API, in memory (not part of the state or snapshots).
 * The first fault that matches a request applies; one whose count is used up is removed.
 */
export class FaultRegistry {
  #faults: (Fault & { matches: (path: string) => boolean })[] = [];
  #nextId = 1;

  constructor(private readonly random: () => number = Math.random) {}

  add(input: FaultInput): Fault {
    const fault = {
      ...input,
      id: this.#nextId++,
      scope: input.scope ?? 'api',
      method: input.method?.toUpperCase(),
      hits: 0,
      remaining: input.count ?? null,
      matches: picomatch(input.path, { dot: true }),
    };
    this.#faults.push(fault);
    return this.#view(fault);
  }

  list(): Fault[] {
    return this.#faults.map((f) => this.#view(f));
  }

  remove(id: number): boolean {
    const before = this.#faults.length;
    this.#faults = this.#faults.filter((f) => f.id !== id);
    return this.#faults.length < before;
  }

  clear(): void {
    this.#faults = [];
  }

  /** The fault that applies to this request, counted as a hit; undefined when none does. */
  take(scope: FaultScope, method: string, path: string): Fault | undefined {
    for (const fault of this.#faults) {
      if (fault.scope !== scope || (fault.method && fault.method !== method.toUpperCase()) || !fault.matches(path))
        continue;
      if (fault.rate !== undefined && this.random() >= fault.rate) continue;
      fault.hits += 1;
      if (fault.remaining !== null) {
        fault.remaining -= 1;
        if (fault.remaining <= 0) this.remove(fault.id);
      }
      return this.#view(fault);
    }
    return undefined;
  }

  #view(fault: Fault & { matches: unknown }): Fault {
    const { matches: _matches, ...view } = fault;
    return Object.fromEntries(Object.entries(view).filter(([, v]) => v !== undefined)) as unknown as Fault;
  }
}
