/**
 * What an operator reads for each stored status word: the words themselves stay in URLs, filters'
 * values and the APIs; the console shows these.
 */
const LABELS: Record<string, string> = {
  // inbound events
  received: 'Waiting to be processed',
  processed: 'Processed',
  failed: 'Failed',
  rejected: 'Rejected (not identified)',
  quarantined: 'Quarantined: needs a fix',
  rejected_by_erp: 'Refused by the ERP',
  // an attempt that failed and will be tried again
  error: 'Error, will retry',
  // WMS pushes
  pending: 'Pending',
  synced: 'Synced',
  // reconciliation runs and items
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  partial: 'Partly checked',
  interrupted: 'Interrupted, will resume',
  drift: 'Drift',
  not_found: 'Not in the WMS',
  unsettled: 'Still moving',
  // ERP deliveries and the emulator's webhook log
  delivered: 'Delivered',
  dead: 'Dead: gave up',
  retry: 'Will retry',
  sending: 'Sending',
  closed: 'Closed (sending)',
  open: 'Open (paused)',
};

export function statusLabel(word: string): string {
  return LABELS[word] ?? word.replace(/_/g, ' ');
}

/** The options of a status filter: the stored word as the value, the label shown. */
export function statusOptions(words: readonly string[], any: string): { value: string; label: string }[] {
  return [{ value: '', label: any }, ...words.map((w) => ({ value: w, label: statusLabel(w) }))];
}
