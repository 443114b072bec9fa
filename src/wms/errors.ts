import { z } from 'zod';

/**
 * RestAPIBadRequestExceptionObject, the body of 400 and 404 (and some 500) answers. Every member is
 * a string, `status` included. None is marked required, so a client reads them all as optional.
 */
export const badRequestObjectSchema = z
  .object({
    entityName: z.string().nullish(),
    errorKey: z.string().nullish(),
    type: z.string().nullish(),
    title: z.string().nullish(),
    status: z.string().nullish(),
    message: z.string().nullish(),
    params: z.string().nullish(),
  })
  .meta({ id: 'RestAPIBadRequestExceptionObject' });
export type BadRequestObject = z.infer<typeof badRequestObjectSchema>;

export const problemStatusSchema = z
  .object({
    reasonPhrase: z.string().nullish(),
    statusCode: z.int32().nullish(),
  })
  .meta({ id: 'StatusType' });

const problemShape = {
  type: z.string().nullish(),
  title: z.string().nullish(),
  status: problemStatusSchema.nullish(),
  detail: z.string().nullish(),
  instance: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
};

/** The nested `cause` of a conflict object; kept one level deep (its own cause is left open). */
export const problemSchema = z.looseObject(problemShape).meta({ id: 'ThrowableProblem' });

/** BadRequestAlertException, the body of 409 and 500 answers. */
export const conflictObjectSchema = z
  .object({
    ...problemShape,
    entityName: z.string().nullish(),
    errorKey: z.string().nullish(),
    message: z.string().nullish(),
    localizedMessage: z.string().nullish(),
    cause: problemSchema.nullish(),
    stackTrace: z.array(z.unknown()).nullish(),
    suppressed: z.array(z.unknown()).nullish(),
  })
  .meta({ id: 'BadRequestAlertException' });
export type ConflictObject = z.infer<typeof conflictObjectSchema>;

/** Token endpoint errors (RFC 6749 style): `invalid_client` on 401, `server_error` on 503. */
export const tokenErrorSchema = z
  .object({
    error: z.string(),
    error_description: z.string().optional(),
  })
  .meta({ id: 'TokenError' });
export type TokenError = z.infer<typeof tokenErrorSchema>;
