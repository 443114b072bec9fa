import type { Child } from 'hono/jsx';

/**
 * A button that POSTs (a state change): with the session's CSRF token, optionally asking first.
 * Works without scripts (plain form, the server answers with a redirect).
 */
export function ActionButton(props: {
  action: string;
  csrf: string;
  label: string;
  variant?: 'primary' | 'danger' | 'default';
  small?: boolean;
  confirm?: string;
  fields?: Record<string, string>;
}) {
  const cls = ['btn', props.variant && props.variant !== 'default' ? props.variant : '', props.small ? 'small' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <form class="inline" method="post" action={props.action} data-confirm={props.confirm}>
      <input type="hidden" name="_csrf" value={props.csrf} />
      {Object.entries(props.fields ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button class={cls} type="submit">
        {props.label}
      </button>
    </form>
  );
}

/**
 * The confirmation step of a bulk action: says how many items it will touch, then POSTs. Reused by
 * every "retry a filter" (WMS pushes, inbound events).
 */
export function ConfirmPanel(props: {
  title: string;
  count: number;
  what: string;
  details?: Child;
  action: string;
  csrf: string;
  fields: Record<string, string>;
  cancelHref: string;
  label: string;
}) {
  return (
    <div class="card">
      <h2>{props.title}</h2>
      <p>
        This will touch <strong>{props.count.toLocaleString('en-US')}</strong> {props.what}.
      </p>
      {props.details}
      <div class="form-row">
        {props.count > 0 ? (
          <ActionButton
            action={props.action}
            csrf={props.csrf}
            label={props.label}
            variant="primary"
            fields={props.fields}
          />
        ) : null}
        <a class="btn" href={props.cancelHref}>
          Cancel
        </a>
      </div>
    </div>
  );
}
