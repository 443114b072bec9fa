/** What a warehouse action answers: its result, and the webhook deliveries it queued. */
export interface ActionResult<T> {
  result: T;
  /** Ids in the delivery log of the webhooks the action queued; they are sent after it returns. */
  deliveries: number[];
}
