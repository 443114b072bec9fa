export interface SelectFilter {
  name: string;
  label: string;
  value: string | undefined;
  options: { value: string; label: string }[];
}

/** A typed filter (a business code, a time): applied with the button or Enter, not on each key. */
export interface InputFilter {
  name: string;
  label: string;
  value: string | undefined;
  type: 'text' | 'datetime-local';
  placeholder?: string;
}

/**
 * A GET form of selects over a list: the filters live in the URL (bookmarkable), and each select
 * applies on change (console.js); the button is there for browsers without scripts, and for the
 * typed inputs when there are some.
 */
export function FilterBar(props: {
  action: string;
  selects: SelectFilter[];
  inputs?: InputFilter[];
  hidden?: Record<string, string>;
}) {
  const inputs = props.inputs ?? [];
  const button = (
    <button class="btn" type="submit">
      Apply
    </button>
  );
  return (
    <form class="filters" method="get" action={props.action}>
      {Object.entries(props.hidden ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      {props.selects.map((s) => (
        <label>
          {s.label}
          <select name={s.name} data-autosubmit="">
            {s.options.map((o) => (
              <option value={o.value} selected={o.value === (s.value ?? '')}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
      ))}
      {inputs.map((i) => (
        <label>
          {i.label}
          <input
            type={i.type}
            name={i.name}
            value={i.value ?? ''}
            placeholder={i.placeholder}
            step={i.type === 'datetime-local' ? 1 : undefined}
          />
        </label>
      ))}
      {inputs.length > 0 ? button : <noscript>{button}</noscript>}
    </form>
  );
}
