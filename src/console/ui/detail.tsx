import type { Child } from 'hono/jsx';

/** Label/value pairs of a detail page. */
export function KeyValues(props: { items: [string, Child][] }) {
  return (
    <dl class="kv">
      {props.items.map(([label, value]) => (
        <>
          <dt>{label}</dt>
          <dd>{value ?? '—'}</dd>
        </>
      ))}
    </dl>
  );
}

export function Card(props: { title?: string; aside?: Child; children?: Child; id?: string }) {
  return (
    <section class="card" id={props.id}>
      {props.title ? (
        <div class="card-head">
          <h2>{props.title}</h2>
          {props.aside}
        </div>
      ) : null}
      {props.children}
    </section>
  );
}

export function Notice(props: { tone: 'ok' | 'bad' | 'info'; children?: Child }) {
  return (
    <div class={`notice ${props.tone}`} role={props.tone === 'bad' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}
