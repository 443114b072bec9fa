/** What a warehouse action answers: its result, and the webhooks it queued. */
export interface ActionResult<T> {
  result: T;
  /** Ids in the webhook log of the webhooks the action queued; they are sent after it returns. */
  webhookIds: number[];
}
