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
 * A GET form of selects over a list: the filters live in the URL (bookmarkable) and apply with the
 * button or Enter, never on change, so a keyboard can move through a select's options without
 * leaving the page.
 */
export function FilterBar(props: {
  action: string;
  selects: SelectFilter[];
  inputs?: InputFilter[];
  hidden?: Record<string, string>;
}) {
  const inputs = props.inputs ?? [];
  return (
    <form class="filters" method="get" action={props.action}>
      {Object.entries(props.hidden ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      {props.selects.map((s) => (
        <label>
          {s.label}
          <select name={s.name}>
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
      <button class="btn" type="submit">
        Apply
      </button>
    </form>
  );
}
