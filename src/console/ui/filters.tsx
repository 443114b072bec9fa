export interface SelectFilter {
  name: string;
  label: string;
  value: string | undefined;
  options: { value: string; label: string }[];
}

/**
 * A GET form of selects over a list: the filters live in the URL (bookmarkable), and each select
 * applies on change (console.js); the button is there for browsers without scripts.
 */
export function FilterBar(props: { action: string; selects: SelectFilter[]; hidden?: Record<string, string> }) {
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
      <noscript>
        <button class="btn" type="submit">
          Apply
        </button>
      </noscript>
    </form>
  );
}
