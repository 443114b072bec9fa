import { statusLabel } from './labels.js';
import { toneOf } from './tone.js';

/** A status word in its colour: synced, failed, processed, drift… */
export function Badge(props: { value: string; label?: string }) {
  return <span class={`badge ${toneOf(props.value)}`}>{props.label ?? statusLabel(props.value)}</span>;
}

export function HealthDot(props: { ok: boolean; label: string; title?: string }) {
  return (
    <span title={props.title}>
      <span class={`dot ${props.ok ? 'ok' : 'bad'}`} />
      {props.label}
    </span>
  );
}
