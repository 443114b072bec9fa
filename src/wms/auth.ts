import { z } from 'zod';
import { codeSchema } from './scalars.js';

/** Option A (API client) token lifetime, `expires_in` of endpoint 21. */
export const API_CLIENT_TOKEN_LIFETIME_SECONDS = 3600;
/** Option B (identity provider) token lifetime. */
export const OAUTH2_TOKEN_LIFETIME_SECONDS = 86_400;
/** Clients should refresh this long before expiry. */
export const TOKEN_REFRESH_MARGIN_SECONDS = 300;

/** Endpoint 21 form body (application/x-www-form-urlencoded); never in the query string. */
export const tokenRequestSchema = z
  .object({
    client_id: codeSchema,
    client_secret: codeSchema,
  })
  .meta({ id: 'TokenRequest' });
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

/** Token response of both options; `token_type` is Bearer (read case-insensitively). */
export const tokenResponseSchema = z
  .object({
    access_token: z.string().min(1),
    token_type: z.string().regex(/^bearer$/i, 'expected Bearer'),
    expires_in: z.int().positive(),
  })
  .meta({ id: 'TokenResponse' });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** The scope the spec's option B password flow asks for. */
export const OAUTH_PASSWORD_SCOPE = 'openid';

/** Option B: POST {auth_url}/oauth/token with a JSON body, client credentials grant. */
export const oauthClientCredentialsRequestSchema = z
  .object({
    client_id: codeSchema,
    client_secret: codeSchema,
    audience: codeSchema,
    grant_type: z.literal('client_credentials'),
  })
  .meta({ id: 'OAuthClientCredentialsRequest' });

/**
 * Option B's declared flow (spec, Authentication: "the password flow at the same token URL with
 * scope `openid`"): the resource owner's username and password beside the client's credentials.
 */
export const oauthPasswordRequestSchema = z
  .object({
    client_id: codeSchema,
    client_secret: codeSchema,
    audience: codeSchema,
    grant_type: z.literal('password'),
    username: codeSchema,
    password: codeSchema,
    /** Space-separated; must name `openid`. */
    scope: codeSchema,
  })
  .meta({ id: 'OAuthPasswordRequest' });

export const OAUTH_GRANT_TYPES = ['client_credentials', 'password'] as const;
export type OAuthGrantType = (typeof OAUTH_GRANT_TYPES)[number];

export const oauthTokenRequestSchema = z
  .discriminatedUnion('grant_type', [oauthClientCredentialsRequestSchema, oauthPasswordRequestSchema])
  .meta({ id: 'OAuthTokenRequest' });
export type OAuthTokenRequest = z.infer<typeof oauthTokenRequestSchema>;
