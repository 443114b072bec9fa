import { type AssetName, assetFile } from '../lib/assets.js';
import { staticFile } from '../lib/static-files.js';
import { ASSETS } from './nav.js';
import type { ConsoleApp } from './page.js';

const TYPES: Partial<Record<AssetName, string>> = {
  'console.css': 'text/css; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'htmx.min.js': 'text/javascript; charset=utf-8',
};

/** The console's stylesheet and scripts, served from the package (htmx included): never a CDN. */
export function registerAssets(app: ConsoleApp): void {
  for (const [name, type] of Object.entries(TYPES) as [AssetName, string][])
    app.get(`${ASSETS}/${name}`, staticFile(assetFile(name), type));
  app.get(`${ASSETS}/*`, (c) => c.text('Not found', 404));
}
