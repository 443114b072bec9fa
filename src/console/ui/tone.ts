/** The colour family of a status word across the console (badges, chart segments, legends). */
export type Tone = 'ok' | 'warn' | 'info' | 'bad' | 'neutral' | 'purple';

const TONES: Record<string, Tone> = {
  // inbound events
  processed: 'ok',
  received: 'info',
  failed: 'bad',
  rejected: 'neutral',
  quarantined: 'purple',
  rejected_by_erp: 'warn',
  // an attempt that failed and will be tried again
  error: 'warn',
  // WMS pushes
  synced: 'ok',
  pending: 'info',
  // reconciliation runs and items
  completed: 'ok',
  queued: 'neutral',
  running: 'info',
  partial: 'warn',
  drift: 'bad',
  not_found: 'warn',
  unsettled: 'neutral',
  // the emulator's webhook log
  delivered: 'ok',
  sending: 'info',
};

export function toneOf(word: string): Tone {
  return TONES[word] ?? 'neutral';
}
