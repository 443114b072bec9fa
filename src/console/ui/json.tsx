/** A JSON value pretty-printed (escaped by JSX: a payload can never inject markup). */
export function JsonBlock(props: { value: unknown }) {
  return <pre class="json">{typeof props.value === 'string' ? prettyJsonText(props.value) : JSON.stringify(props.value, null, 2)}</pre>;
}

/** Text that is JSON shown pretty-printed; anything else (a raw body that did not parse) as it is. */
export function prettyJsonText(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * A JSON editor: a textarea whose text is checked as it is typed (console.js) and again before the
 * form is sent; the server checks it once more, against the schema, when saving.
 */
export function JsonEditor(props: { name: string; value: unknown; id: string; label?: string }) {
  const text = typeof props.value === 'string' ? prettyJsonText(props.value) : JSON.stringify(props.value, null, 2);
  return (
    <div class="field">
      {props.label ? <label for={props.id}>{props.label}</label> : null}
      <textarea class="json" id={props.id} name={props.name} spellcheck={false} data-json-editor={`${props.id}-validation`}>
        {text}
      </textarea>
      <div class="validation" id={`${props.id}-validation`} aria-live="polite" />
    </div>
  );
}
