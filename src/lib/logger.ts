import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * Paths pino censors before a line is written. Secrets reach the logger through request headers,
 * config objects and error contexts; every shape we know of is listed here and covered by a test.
 */
export const REDACT_PATHS = [
  'authorization',
  'password',
  'secret',
  'token',
  'client_secret',
  'clientSecret',
  'access_token',
  'accessToken',
  'erpApiToken',
  'webhookPassword',
  'webhookCredentials',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  'request.headers.authorization',
  '*.authorization',
  '*.Authorization',
  '*.password',
  '*.secret',
  '*.token',
  '*.client_secret',
  '*.clientSecret',
  '*.access_token',
  '*.accessToken',
  '*.erpApiToken',
  '*.webhookPassword',
  '*.webhookCredentials',
  '*.*.webhookCredentials',
  '*.*.password',
  '*.*.clientSecret',
  '*.*.client_secret',
  '*.*.authorization',
  '*.*.erpApiToken',
  '*.*.token',
];

export interface LoggerOptions {
  level?: string;
  name?: string;
  /** Where lines go; stdout by default. Tests pass a stream to read what was written. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      ...(options.name ? { name: options.name } : {}),
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination ?? pino.destination({ sync: false }),
  );
}

/** A logger that writes nothing, for commands and tests that have no use for log lines. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
