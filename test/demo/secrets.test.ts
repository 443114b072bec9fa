import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { demoSecretsFile, loadOrCreateDemoSecrets } from '../../src/demo/connection.js';
import { tempDir } from '../support/tmp.js';

describe('demo secrets (DATA_DIR/demo-connection.json)', () => {
  const tmp = tempDir('demo-secrets');
  afterAll(() => tmp.remove());

  it('are made on the first start, with the console’s admin token, kept 0600, and the same on the next start', () => {
    const dir = `${tmp.dir}/fresh`;
    const first = loadOrCreateDemoSecrets(dir);
    expect(first.adminToken).toMatch(/^admin-[0-9a-f]{32}$/);
    expect(statSync(demoSecretsFile(dir)).mode & 0o777).toBe(0o600);
    expect(loadOrCreateDemoSecrets(dir)).toEqual(first);
  });

  it('a file written before the console gets an admin token added, its other secrets kept', () => {
    const dir = `${tmp.dir}/older`;
    const file = demoSecretsFile(`${dir}`);
    loadOrCreateDemoSecrets(dir);
    const older = { webhookPassword: 'pw-0123456789', erpApiToken: 'demo-0123456789abcdef0123' };
    writeFileSync(file, JSON.stringify(older));
    const upgraded = loadOrCreateDemoSecrets(dir);
    expect(upgraded).toMatchObject(older);
    expect(upgraded.adminToken).toMatch(/^admin-/);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(upgraded);
  });
});
