/**
 * The shared budget of calls in flight to one WMS connection (the adaptive limit's state) and the
 * processes using it. The store keeps the state as opaque JSON: its rules live with the WMS client.
 */
export interface LimitBudgetExchange<S> {
  connection: string;
  /** This process (a random id per process). */
  holder: string;
  /** Calls this process has in flight or waiting now. */
  demand: number;
  now: Date;
  /** A holder that does not exchange again within this long is taken as gone. */
  leaseMs: number;
  /** The new state from the stored one (null the first time); runs while the state is locked. */
  update(state: S | null): S;
}

export interface LimitBudgetRepo {
  /**
   * One locked read-update-write of the connection's state, this holder's lease renewed with its
   * demand, expired holders removed; answers the new state and the demand of all live holders.
   */
  exchange<S>(input: LimitBudgetExchange<S>): Promise<{ state: S; totalDemand: number; holders: number }>;
  /** Removes the holder at once (a clean stop). */
  leave(connection: string, holder: string): Promise<void>;
}
