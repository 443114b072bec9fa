import type { Child } from 'hono/jsx';
import { ASSETS, CONSOLE, NAV, type NavId, pageHref } from '../nav.js';
import { Notice } from './detail.js';

export interface Flash {
  tone: 'ok' | 'bad' | 'info';
  message: string;
}

/** What every page's frame needs: where the operator is, and the session's CSRF token. */
export interface Frame {
  connection: string | undefined;
  connections: readonly string[];
  active: NavId | undefined;
  csrf: string;
  /** The emulator panel is offered only when the console runs under `wms-sync start`. */
  emulator: boolean;
  flash?: Flash | undefined;
  /** Who is signed in (an operator's name, or the e-mail the OpenID provider gave). */
  operator?: string | undefined;
}

function Head(props: { title: string; refresh?: string | undefined }) {
  return (
    <head>
      <meta charset="utf-8" />
      {props.refresh ? <meta http-equiv="refresh" content={`0;url=${props.refresh}`} /> : null}
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{`${props.title} · wms-sync console`}</title>
      <meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false}' />
      <link rel="stylesheet" href={`${ASSETS}/console.css`} />
      <script src={`${ASSETS}/htmx.min.js`} defer />
      <script src={`${ASSETS}/console.js`} defer />
    </head>
  );
}

/** The page frame: top bar (connection switcher, sign-out), side navigation, the page itself. */
export function Layout(props: { title: string; frame: Frame; children?: Child }) {
  const { frame } = props;
  const nav = NAV.filter((n) => !('onlyWithEmulator' in n) || frame.emulator);
  return (
    <html lang="en">
      <Head title={props.title} />
      <body hx-headers={JSON.stringify({ 'x-csrf-token': frame.csrf })}>
        <a class="skip" href="#main">
          Skip to the page
        </a>
        <header class="topbar">
          <a class="brand" href={CONSOLE}>
            wms-sync<span>console</span>
          </a>
          <div class="spacer" />
          {frame.connections.length > 0 ? (
            <form method="get" action={`${CONSOLE}/go`}>
              <label for="connection-switch">Connection</label>
              <select id="connection-switch" name="connection">
                {frame.connections.map((c) => (
                  <option value={c} selected={c === frame.connection}>
                    {c}
                  </option>
                ))}
              </select>
              {frame.active ? <input type="hidden" name="page" value={frame.active} /> : null}
              <button class="btn small" type="submit">
                Go
              </button>
            </form>
          ) : null}
          {frame.operator ? (
            <span class="who">
              Signed in as <strong>{frame.operator}</strong>
            </span>
          ) : null}
          <form method="post" action={`${CONSOLE}/sign-out`}>
            <input type="hidden" name="_csrf" value={frame.csrf} />
            <button class="btn small" type="submit">
              Sign out
            </button>
          </form>
        </header>
        <div class="shell">
          <nav class="side" aria-label="Pages">
            {frame.connection ? (
              <>
                <div class="section">{frame.connection}</div>
                {nav.map((n) => (
                  <a
                    href={pageHref(frame.connection!, n.id)}
                    class={n.id === frame.active ? 'active' : undefined}
                    aria-current={n.id === frame.active ? 'page' : undefined}
                  >
                    {n.label}
                  </a>
                ))}
              </>
            ) : null}
          </nav>
          <main id="main" tabindex={-1}>
            {frame.flash ? <Notice tone={frame.flash.tone}>{frame.flash.message}</Notice> : null}
            {props.children}
          </main>
        </div>
      </body>
    </html>
  );
}

/** A page's title row: breadcrumbs, title, subtitle, and its actions on the right. */
export function PageHead(props: { title: string; subtitle?: Child; crumbs?: Child; actions?: Child }) {
  return (
    <div class="page-head">
      <div>
        {props.crumbs ? <div class="crumbs">{props.crumbs}</div> : null}
        <h1>{props.title}</h1>
        {props.subtitle ? <div class="subtitle">{props.subtitle}</div> : null}
      </div>
      {props.actions ? <div class="actions">{props.actions}</div> : null}
    </div>
  );
}

/**
 * A page outside the frame (sign-in): no navigation, no session. `refresh` sends the browser on
 * from the page itself, a navigation of this site's own (unlike a redirect answering another site).
 */
export function Bare(props: { title: string; bodyClass: string; refresh?: string; children?: Child }) {
  return (
    <html lang="en">
      <Head title={props.title} refresh={props.refresh} />
      <body class={props.bodyClass}>{props.children}</body>
    </html>
  );
}
