import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Context } from 'hono';

/**
 * The root folder of an installed package (the nearest folder above its entry point whose
 * package.json names it). Packages whose `exports` hide `package.json` cannot be asked directly.
 */
export function packageRoot(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.resolve(name)));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name)
      return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the root folder of package ${name}`);
    dir = parent;
  }
}

/** A file inside an installed package, e.g. `packageFile('htmx.org', 'dist/htmx.min.js')`. */
export function packageFile(name: string, path: string): string {
  return join(packageRoot(name), path);
}

interface Loaded {
  body: Buffer;
  gzip: Buffer;
  etag: string;
}

/**
 * Serves one file of ours or of an installed package from a local route, so that pages never load
 * anything from the internet. The file is read on the first request and kept (with a gzip copy);
 * browsers revalidate it with its ETag (`no-cache`), so a new version shows after a restart.
 */
export function staticFile(file: string, contentType: string): (c: Context) => Response {
  let loaded: Loaded | undefined;
  const load = (): Loaded => {
    if (loaded) return loaded;
    const body = readFileSync(file);
    loaded = {
      body,
      gzip: gzipSync(body),
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    };
    return loaded;
  };
  return (c) => {
    const { body, gzip, etag } = load();
    const headers: Record<string, string> = { etag, 'cache-control': 'no-cache', vary: 'accept-encoding' };
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
    const zipped = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
    const bytes = zipped ? gzip : body;
    return c.body(new Uint8Array(bytes), 200, {
      ...headers,
      'content-type': contentType,
      'content-length': String(bytes.length),
      ...(zipped ? { 'content-encoding': 'gzip' } : {}),
    });
  };
}

/** Scalar's API reference bundle (`@scalar/api-reference`, browser build), served by /docs pages. */
export function scalarBundle(): (c: Context) => Response {
  return staticFile(
    packageFile('@scalar/api-reference', 'dist/browser/standalone.js'),
    'text/javascript; charset=utf-8',
  );
}

/**
 * Scalar settings that keep the reference page off the internet: no web fonts, and no "Ask AI"
 * agent (on a loopback URL it would call Scalar's registry through proxy.scalar.com).
 */
export const OFFLINE_REFERENCE = { withDefaultFonts: false, agent: { disabled: true } } as const;
