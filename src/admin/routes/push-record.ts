import { z } from '@hono/zod-openapi';
import { NUL_MESSAGE } from '../../lib/nul.js';
import { PUSH_ENTITIES } from '../../store/index.js';
import { connectionParams } from './params.js';

/** Path parameters naming one WMS push of a connection. */
export const recordParams = connectionParams.extend({
  entity: z.enum(PUSH_ENTITIES).openapi({ param: { name: 'entity', in: 'path' }, example: 'product' }),
  externalCode: z
    .string()
    .min(1)
    .refine((code) => !code.includes('\u0000'), NUL_MESSAGE)
    .openapi({ param: { name: 'externalCode', in: 'path' }, example: 'SKU-1001' }),
});
