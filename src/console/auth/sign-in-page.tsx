import { SIGN_IN } from '../nav.js';
import { Notice } from '../ui/detail.js';
import { Bare } from '../ui/layout.js';

/** GET /console/sign-in/oidc: where the OpenID sign-in starts (a link: the form-action CSP would stop a form's redirect to the provider). */
export const OIDC_START = `${SIGN_IN}/oidc`;
/** The redirect URL registered at the provider: PUBLIC_URL (or the request's origin) + this path. */
export const OIDC_CALLBACK = `${SIGN_IN}/oidc/callback`;

export interface SignInProps {
  next: string | undefined;
  error?: string | undefined;
  /** OIDC_NAME, when OpenID Connect sign-in is on. */
  oidc?: string | undefined;
}

function SignInPage(props: SignInProps) {
  const start = props.next ? `${OIDC_START}?next=${encodeURIComponent(props.next)}` : OIDC_START;
  return (
    <Bare title="Sign in" bodyClass="signin">
      <main class="signin-card">
        <h1>wms-sync console</h1>
        {props.error ? <Notice tone="bad">{props.error}</Notice> : null}
        {props.oidc ? (
          <div class="signin-oidc">
            <a class="btn primary" href={start}>
              {`Sign in with ${props.oidc}`}
            </a>
            <div class="signin-or" aria-hidden="true">
              or with a token
            </div>
          </div>
        ) : null}
        <div class="muted">Sign in with your admin token (ADMIN_TOKENS, or the service's ADMIN_TOKEN).</div>
        <form method="post" action={SIGN_IN}>
          {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
          <label class="field" for="token">
            Admin token
            <input id="token" name="token" type="password" autocomplete="current-password" required autofocus />
          </label>
          <button class={props.oidc ? 'btn' : 'btn primary'} type="submit">
            Sign in
          </button>
        </form>
        <p class="hint">
          <code>wms-sync start</code> prints it (and keeps it in <code>DATA_DIR/demo-connection.json</code>); on a
          server it is the <code>ADMIN_TOKEN</code> setting.
        </p>
      </main>
    </Bare>
  );
}

export const signInPage = (props: SignInProps) => `<!DOCTYPE html>${String(<SignInPage {...props} />)}`;

/** After the provider's callback: the session is set, and the console is one same-site navigation away. */
function SignedInPage(props: { operator: string; to: string }) {
  return (
    <Bare title="Signed in" bodyClass="signin" refresh={props.to}>
      <main class="signin-card">
        <h1>wms-sync console</h1>
        <p>
          Signed in as <strong>{props.operator}</strong>.
        </p>
        <a class="btn primary" href={props.to}>
          Continue to the console
        </a>
      </main>
    </Bare>
  );
}

export const signedInPage = (props: { operator: string; to: string }) =>
  `<!DOCTYPE html>${String(<SignedInPage {...props} />)}`;

/** The provider let the operator in but this console does not, or the answer was refused. */
function RefusedPage(props: { title: string; message: string; retry: boolean }) {
  return (
    <Bare title={props.title} bodyClass="signin">
      <main class="signin-card">
        <h1>{props.title}</h1>
        <Notice tone="bad">{props.message}</Notice>
        <p>
          <a href={SIGN_IN}>{props.retry ? 'Back to sign-in' : 'Sign in with an admin token instead'}</a>
        </p>
      </main>
    </Bare>
  );
}

export const refusedPage = (props: { title: string; message: string; retry: boolean }) =>
  `<!DOCTYPE html>${String(<RefusedPage {...props} />)}`;
