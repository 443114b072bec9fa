import { z } from 'zod';

/** The service's one error body (see errors.ts `errorBody`), for OpenAPI route definitions. */
export const errorBodySchema = z
  .object({
    success: z.literal(false),
    error: z.string().meta({ example: 'validation_failed' }),
    message: z.string().meta({ example: 'lines[0].quantity: Invalid input: expected number, received string' }),
    requestId: z.string().optional(),
    details: z.unknown().optional(),
  })
  .meta({ id: 'ErrorBody' });

export function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: errorBodySchema } } };
}
