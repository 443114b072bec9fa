import { z } from 'zod';

export const controlErrorSchema = z
  .object({ error: z.string(), message: z.string() })
  .meta({ id: 'EmulatorControlError' });

export const tenantIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/,
    'expected letters, digits, ".", "_" or "-" (at most 64), starting with a letter or digit',
  );

export const tenantSettingsSchema = z
  .strictObject({
    API_WITH_LOT: z.boolean().optional(),
    API_WITH_EXPIRATION_DATE: z.boolean().optional(),
  })
  .meta({ id: 'EmulatorTenantSettingsInput', description: 'Application settings; one left out keeps its value.' });

export const tenantSchema = z
  .object({
    id: z.string(),
    settings: z.object({ API_WITH_LOT: z.boolean(), API_WITH_EXPIRATION_DATE: z.boolean() }),
  })
  .meta({ id: 'EmulatorTenant' });

export const createTenantSchema = z
  .strictObject({ id: tenantIdSchema, settings: tenantSettingsSchema.optional() })
  .meta({ id: 'EmulatorTenantInput' });

export const createApiClientSchema = z
  .strictObject({ name: z.string().min(1).max(200) })
  .meta({ id: 'EmulatorApiClientInput' });
export const createOAuthClientSchema = z
  .strictObject({ audience: z.string().min(1).max(500) })
  .meta({ id: 'EmulatorOAuthClientInput' });

export const clientCredentialsSchema = z
  .object({
    client_id: z.string(),
    client_secret: z.string().meta({ description: 'Shown once: only a salted hash is kept.' }),
    name: z.string().optional(),
    audience: z.string().optional(),
  })
  .meta({ id: 'EmulatorClientCredentials' });

export const clientViewSchema = z
  .object({
    client_id: z.string(),
    kind: z.enum(['api', 'oauth']),
    name: z.string().optional(),
    audience: z.string().optional(),
    enabled: z.boolean(),
  })
  .meta({ id: 'EmulatorClient' });

export const tenantParams = z.object({ tenant: z.string() });
export const clientParams = z.object({ tenant: z.string(), clientId: z.string() });
