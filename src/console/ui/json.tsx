import type { Child } from 'hono/jsx';
import { jsonTextDepth, MAX_PAYLOAD_DEPTH } from '../../lib/nul.js';

/** A JSON value pretty-printed (escaped by JSX: a payload can never inject markup). */
export function JsonBlock(props: { value: unknown }) {
  return (
    <pre class="json" tabindex={0}>
      {typeof props.value === 'string' ? prettyJsonText(props.value) : JSON.stringify(props.value, null, 2)}
    </pre>
  );
}

/** Text that is JSON shown pretty-printed; anything else (a raw body that did not parse) as it is. */
export function prettyJsonText(text: string): string {
  // Deeper than any accepted body: shown as received rather than re-serialized with recursion.
  if (jsonTextDepth(text) > MAX_PAYLOAD_DEPTH) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * A JSON editor: a textarea whose text is checked as it is typed (console.js: does it parse) and
 * again before the form is sent; with `check`, htmx also posts it there as it is typed (debounced)
 * and shows the server's answer (the schema's problems, or what would change) in `${id}-check`,
 * whose first content is `checked`.
 */
export function JsonEditor(props: {
  name: string;
  value: unknown;
  id: string;
  /** Every editor is named: a screen reader announces it, and axe requires it. */
  label: string;
  check?: string;
  checked?: Child;
}) {
  const text = typeof props.value === 'string' ? prettyJsonText(props.value) : JSON.stringify(props.value, null, 2);
  const checkTarget = `${props.id}-check`;
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <textarea
        class="json"
        id={props.id}
        name={props.name}
        spellcheck={false}
        data-json-editor={`${props.id}-validation`}
        hx-post={props.check}
        hx-trigger={props.check ? 'input changed delay:400ms' : undefined}
        hx-target={props.check ? `#${checkTarget}` : undefined}
        hx-swap={props.check ? 'innerHTML' : undefined}
      >
        {text}
      </textarea>
      <div class="validation" id={`${props.id}-validation`} aria-live="polite" />
      {props.check ? (
        <div class="check" id={checkTarget} aria-live="polite">
          {props.checked}
        </div>
      ) : null}
    </div>
  );
}
