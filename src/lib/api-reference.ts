import type { Context } from 'hono';
import { html } from 'hono/html';
import { assetFile } from './assets.js';
import { staticFile } from './static-files.js';

/**
 * The API reference pages (/docs, /_emulator/docs): Redoc's prebuilt browser bundle, served from
 * our own route, rendering an OpenAPI document of ours. Chosen over Scalar's bundle: a third of
 * its size, and no critical or serious axe-core violation on our documents (docs/operations.md).
 * The page's policy allows images and fonts from this origin only: the bundle links Redocly's
 * logo from their CDN, which must never be fetched from a host without internet.
 */
export function apiReferencePage(options: { title: string; specUrl: string; scriptUrl: string }) {
  const page = html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta http-equiv="Content-Security-Policy" content="img-src 'self' data:; font-src 'self' data:" />
    <title>${options.title}</title>
  </head>
  <body>
    <redoc spec-url="${options.specUrl}"></redoc>
    <script src="${options.scriptUrl}"></script>
  </body>
</html>
`;
  return (c: Context) => c.html(page);
}

/** The reference's browser bundle. */
export function apiReferenceScript(): (c: Context) => Response {
  return staticFile(assetFile('api-reference.js'), 'text/javascript; charset=utf-8');
}
