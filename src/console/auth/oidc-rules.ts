/** Who may use the console after signing in at the OpenID provider (OIDC_ALLOWED_DOMAINS, OIDC_ALLOWED_GROUPS). */
export interface OidcRules {
  allowedDomains: readonly string[];
  allowedGroups: readonly string[];
}

export type Admission = { allowed: true; operator: string } | { allowed: false; who: string; reason: string };

const PRINTABLE = /^[^\p{Cc}\s][^\p{Cc}]{0,253}$/u;

/**
 * The operator a provider's claims name, and whether the rules let them in. The name is the
 * e-mail, else `preferred_username`. An e-mail the provider marks unverified (`email_verified:
 * false`) counts for no domain: anyone can type any address into some providers' profiles. With
 * both lists set, an operator needs both.
 */
export function admit(claims: Record<string, unknown>, rules: OidcRules): Admission {
  const email = typeof claims.email === 'string' && PRINTABLE.test(claims.email) ? claims.email : undefined;
  const username =
    typeof claims.preferred_username === 'string' && PRINTABLE.test(claims.preferred_username)
      ? claims.preferred_username
      : undefined;
  const operator = email ?? username;
  if (!operator)
    return {
      allowed: false,
      who: typeof claims.sub === 'string' ? claims.sub : 'this account',
      reason: 'the provider sent neither an e-mail nor a user name for this account (ask for the email scope)',
    };
  const refuse = (reason: string): Admission => ({ allowed: false, who: operator, reason });
  if (rules.allowedDomains.length > 0) {
    if (!email) return refuse('the provider sent no e-mail address, and only some e-mail domains may sign in');
    if (claims.email_verified === false) return refuse(`the provider has not verified the address ${email}`);
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    if (!email.includes('@') || !rules.allowedDomains.includes(domain))
      return refuse(`e-mail addresses at ${domain} may not sign in here`);
  }
  if (rules.allowedGroups.length > 0) {
    const groups = groupsOf(claims.groups);
    if (!groups.some((g) => rules.allowedGroups.includes(g)))
      return refuse(
        groups.length === 0
          ? 'the provider sent no groups for this account, and only some groups may sign in'
          : "none of this account's groups may sign in here",
      );
  }
  return { allowed: true, operator };
}

/** The `groups` claim: an array of names (some providers send a single string). */
function groupsOf(claim: unknown): string[] {
  if (typeof claim === 'string') return [claim];
  return Array.isArray(claim) ? claim.filter((g): g is string => typeof g === 'string') : [];
}
