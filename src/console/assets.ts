import { fileURLToPath } from 'node:url';
import { packageFile, staticFile } from '../lib/static-files.js';
import { ASSETS } from './nav.js';
import type { ConsoleApp } from './page.js';

const own = (name: string) => fileURLToPath(new URL(`./assets/${name}`, import.meta.url));

/** The console's stylesheet and scripts, served from the package (htmx from node_modules): never a CDN. */
export function registerAssets(app: ConsoleApp): void {
  app.get(`${ASSETS}/console.css`, staticFile(own('console.css'), 'text/css; charset=utf-8'));
  app.get(`${ASSETS}/console.js`, staticFile(own('console.js'), 'text/javascript; charset=utf-8'));
  app.get(
    `${ASSETS}/htmx.min.js`,
    staticFile(packageFile('htmx.org', 'dist/htmx.min.js'), 'text/javascript; charset=utf-8'),
  );
  app.get(`${ASSETS}/*`, (c) => c.text('Not found', 404));
}
