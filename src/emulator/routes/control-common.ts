import { z } from 'zod';
import { JSON_TYPE, json } from './common.js';
import { controlErrorSchema } from './control-schemas.js';

export const CONTROL_ERRORS = {
  400: json(controlErrorSchema, 'Invalid request'),
  401: json(controlErrorSchema, 'Admin token required'),
  403: json(controlErrorSchema, 'Not from loopback'),
  404: json(controlErrorSchema, 'Unknown tenant or resource'),
  409: json(controlErrorSchema, 'Not allowed in the current state'),
};

/** A JSON body that may be left out entirely (then `{}`). */
export const optionalBody = <T extends z.ZodType>(schema: T, description: string) => ({
  required: false,
  description,
  content: { [JSON_TYPE]: { schema } },
});

export const tenantCodeParams = z.object({ tenant: z.string(), code: z.string().min(1) });
