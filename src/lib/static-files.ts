import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Context } from 'hono';

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
