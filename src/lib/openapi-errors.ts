import { z } from 'zod';
import { ERROR_CODE_LIST, ERROR_CODES } from './errors.js';

/** The service's one error body (see errors.ts `errorBody`), for OpenAPI route definitions. */
export const errorBodySchema = z
  .object({
    success: z.literal(false),
    error: z.enum(ERROR_CODE_LIST).meta({
      example: 'validation_failed',
      description: Object.entries(ERROR_CODES)
        .map(([code, meaning]) => `- \`${code}\`: ${meaning}`)
        .join('\n'),
    }),
    message: z.string().meta({ example: 'lines[0].quantity: Invalid input: expected number, received string' }),
    requestId: z.string().optional(),
    details: z.unknown().optional(),
  })
  .meta({ id: 'ErrorBody' });

export function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: errorBodySchema } } };
}
