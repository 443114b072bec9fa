/**
 * The `Authorization` value of HTTP Basic (RFC 7617): `Basic ` and the base64 of `user:password`
 * in UTF-8. One builder for the receiver's expected values, the emulator's webhook sender and
 * `wms-sync replay`, so they can never disagree on the encoding.
 */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}
