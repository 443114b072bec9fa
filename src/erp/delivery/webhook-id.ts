/** The id the ERP dedupes on: one per feed event and connection, the same on every attempt and resend. */
export const webhookIdOf = (connection: string, feedEntryId: number) => `evt_${connection}_${feedEntryId}`;
