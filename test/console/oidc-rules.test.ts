import { describe, expect, it } from 'vitest';
import { admit } from '../../src/console/auth/oidc-rules.js';

const domains = { allowedDomains: ['example.com'], allowedGroups: [] };
const groups = { allowedDomains: [], allowedGroups: ['ops'] };
const both = { allowedDomains: ['example.com'], allowedGroups: ['ops'] };

describe('who may sign in through the OpenID provider', () => {
  it('names the operator by e-mail, else by preferred_username', () => {
    expect(admit({ sub: '1', email: 'a@example.com', preferred_username: 'al' }, domains)).toEqual({
      allowed: true,
      operator: 'a@example.com',
    });
    expect(admit({ sub: '1', preferred_username: 'al', groups: ['ops'] }, groups)).toEqual({
      allowed: true,
      operator: 'al',
    });
    expect(admit({ sub: '1', groups: ['ops'] }, groups)).toMatchObject({ allowed: false, who: '1' });
  });

  it('matches the e-mail domain exactly, in any case; a subdomain or a look-alike is another domain', () => {
    expect(admit({ email: 'A@EXAMPLE.COM' }, domains)).toMatchObject({ allowed: true });
    expect(admit({ email: 'a@eu.example.com' }, domains)).toMatchObject({ allowed: false });
    expect(admit({ email: 'a@example.com.evil.org' }, domains)).toMatchObject({ allowed: false });
    expect(admit({ email: 'a@evil.org@example.com' }, domains)).toMatchObject({
      allowed: true,
      operator: 'a@evil.org@example.com',
    });
    expect(admit({ preferred_username: 'a@example.com' }, domains)).toMatchObject({
      allowed: false,
      reason: 'the provider sent no e-mail address, and only some e-mail domains may sign in',
    });
  });

  it('refuses an e-mail the provider marks unverified; one without the claim counts', () => {
    expect(admit({ email: 'a@example.com', email_verified: false }, domains)).toMatchObject({ allowed: false });
    expect(admit({ email: 'a@example.com' }, domains)).toMatchObject({ allowed: true });
  });

  it('reads groups as a list or a single name; with both rules set, an operator needs both', () => {
    expect(admit({ email: 'a@x.org', groups: 'ops' }, groups)).toMatchObject({ allowed: true });
    expect(admit({ email: 'a@x.org', groups: ['sales', 7] }, groups)).toMatchObject({ allowed: false });
    expect(admit({ email: 'a@example.com', groups: ['ops'] }, both)).toMatchObject({ allowed: true });
    expect(admit({ email: 'a@example.com', groups: ['sales'] }, both)).toMatchObject({ allowed: false });
    expect(admit({ email: 'a@x.org', groups: ['ops'] }, both)).toMatchObject({ allowed: false });
  });

  it('takes no name with a control character or an empty one', () => {
    expect(admit({ email: 'a@example.com\n', preferred_username: '' }, domains)).toMatchObject({ allowed: false });
    expect(admit({ email: 'x'.repeat(300) }, groups)).toMatchObject({ allowed: false });
  });
});
