import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Child } from 'hono/jsx';
import type { ConnectionConfig } from '../lib/connections.js';
import { AppError } from '../lib/errors.js';
import type { ConsoleDeps, ConsoleEnv } from './env.js';
import { CONSOLE, type NavId } from './nav.js';
import { type Flash, type Frame, Layout } from './ui/layout.js';

export type ConsoleContext = Context<ConsoleEnv>;
export type ConsoleApp = Hono<ConsoleEnv>;

/** Adds one page (or a page and its actions and fragments) to the console; one file per page. */
export type PageRegistrar = (app: ConsoleApp, deps: ConsoleDeps) => void;

const FLASH_COOKIE = 'wms_console_flash';

/** Says how an action went, on the page it redirects to (post/redirect/get). */
export function setFlash(c: ConsoleContext, flash: Flash): void {
  // The audit trail reads how the action went from here.
  c.set('flash', flash);
  setCookie(c, FLASH_COOKIE, Buffer.from(JSON.stringify(flash)).toString('base64url'), {
    path: CONSOLE,
    httpOnly: true,
    sameSite: 'Strict',
    secure: c.get('https') ?? false,
    maxAge: 60,
  });
}

function takeFlash(c: ConsoleContext): Flash | undefined {
  const raw = getCookie(c, FLASH_COOKIE);
  if (!raw) return undefined;
  deleteCookie(c, FLASH_COOKIE, { path: CONSOLE });
  try {
    const flash = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Flash;
    return (flash.tone === 'ok' || flash.tone === 'bad' || flash.tone === 'info') && typeof flash.message === 'string'
      ? flash
      : undefined;
  } catch {
    return undefined;
  }
}

/** The frame of a page of `connection` (or of no connection). */
export function frameFor(
  c: ConsoleContext,
  deps: ConsoleDeps,
  connection: string | undefined,
  active: NavId | undefined,
): Frame {
  return {
    connection,
    connections: deps.connections.all().map((x) => x.name),
    active,
    csrf: c.get('session')?.csrf ?? '',
    operator: c.get('session')?.operator,
    emulator: connection !== undefined && deps.emulator?.connection === connection,
    flash: takeFlash(c),
  };
}

/** A whole page: doctype, frame, content. */
export function renderPage(
  c: ConsoleContext,
  title: string,
  frame: Frame,
  body: Child,
  status: 200 | 400 | 404 | 409 | 429 = 200,
) {
  return c.html(
    `<!DOCTYPE html>${String(
      <Layout title={title} frame={frame}>
        {body}
      </Layout>,
    )}`,
    status,
  );
}

/** A fragment for htmx to swap in (a refreshed part of a page). */
export function renderFragment(c: ConsoleContext, body: Child) {
  return c.html(String(body));
}

/** The connection named in the path; a 404 page when it is not configured. */
export function pathConnection(c: ConsoleContext, deps: ConsoleDeps): ConnectionConfig {
  const name = c.req.param('connection') ?? '';
  const connection = deps.connections.get(name);
  if (!connection) throw new AppError(404, 'not_found', `No connection "${name}"`);
  return connection;
}
