import { createHash, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import type { EmulatorContext } from '../context.js';

/**
 * The HS256 key tokens are signed with. A configured key (any string) is hashed to 256 bits.
 * Without one, a random key is generated once and kept in the emulator's database, so tokens
 * survive a restart on the same `--data` file.
 */
export function resolveSigningKey(ctx: EmulatorContext, configured: string | undefined): KeyObject {
  if (configured) return createSecretKey(createHash('sha256').update(configured).digest());
  const row = ctx.sql("SELECT value FROM emulator_meta WHERE key = 'signing_key'").get() as
    | { value: string }
    | undefined;
  if (row) return createSecretKey(Buffer.from(row.value, 'base64'));
  const key = randomBytes(32);
  ctx.sql("INSERT INTO emulator_meta (key, value) VALUES ('signing_key', ?)").run(key.toString('base64'));
  return createSecretKey(key);
}
