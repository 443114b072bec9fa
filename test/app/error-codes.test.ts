import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODE_LIST, ERROR_CODES } from '../../src/lib/errors.js';
import { startTestService, type TestService } from '../support/service.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'emulator' ? [] : sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

interface OpenApiDoc {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>
  >;
  components: { schemas: Record<string, { properties: Record<string, { enum?: string[]; description?: string }> }> };
}

describe('error codes: one closed list', () => {
  let svc: TestService;
  let doc: OpenApiDoc;
  beforeAll(async () => {
    svc = await startTestService({ label: 'error-codes' });
    doc = (await (await svc.app.request('/openapi.json')).json()) as OpenApiDoc;
  });
  afterAll(() => svc.close());

  it('the OpenAPI error body enumerates exactly the codes, each with its meaning', () => {
    const error = doc.components.schemas.ErrorBody!.properties.error!;
    expect(error.enum).toEqual(ERROR_CODE_LIST);
    for (const [code, meaning] of Object.entries(ERROR_CODES))
      expect(error.description).toContain(`\`${code}\`: ${meaning}`);
  });

  it('every documented error response of the service is that error body', () => {
    const errors = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) =>
        Object.entries(op.responses ?? {})
          .filter(([status]) => Number(status) >= 400)
          .map(([status, r]) => ({
            at: `${method} ${path} ${status}`,
            schema: r.content?.['application/json']?.schema,
          })),
      ),
    );
    expect(errors.length).toBeGreaterThan(50);
    for (const e of errors) expect(e, e.at).toEqual({ at: e.at, schema: { $ref: '#/components/schemas/ErrorBody' } });
  });

  it('every code is one the service answers somewhere: the list holds no code nothing produces', () => {
    const errorsFile = join(ROOT, 'src/lib/errors.ts');
    const text = sources(join(ROOT, 'src'))
      .map((f) => {
        const source = readFileSync(f, 'utf8');
        // The list itself does not count as a use.
        return f === errorsFile ? source.replace(/export const ERROR_CODES = \{[\s\S]*?\} as const;/, '') : source;
      })
      .join('\n');
    for (const code of ERROR_CODE_LIST) expect(text, code).toContain(`'${code}'`);
  });

  it("README's error table lists exactly the codes", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Errors'), readme.indexOf('\n## ', readme.indexOf('### Errors')));
    const listed = [...section.matchAll(/^\| `([a-z_]+)` +\|/gm)].map((m) => m[1]);
    expect(listed).toEqual(ERROR_CODE_LIST);
  });
});
