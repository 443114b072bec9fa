import pino, { type DestinationStream, type Logger } from 'pino';
import { redactSecrets } from './redact.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  level?: string;
  name?: string;
  /** Where lines go; stdout by default. Tests pass a stream to read what was written. */
  destination?: DestinationStream;
}

/**
 * Secrets reach the logger through request headers, config objects, error bodies and child
 * bindings; every value whose key names a secret is censored wherever it sits (lib/redact.ts):
 * in each line's object, and in the bindings of every child logger.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const logger = pino(
    {
      level: options.level ?? 'info',
      ...(options.name ? { name: options.name } : {}),
      formatters: { log: redactSecrets },
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination ?? pino.destination({ sync: false }),
  );
  // Pino writes a child's bindings once, without the log formatter; children inherit these two.
  const child = logger.child;
  const setBindings = logger.setBindings;
  logger.child = function (this: Logger, bindings, childOptions) {
    return child.call(this, redactSecrets(bindings), childOptions);
  } as Logger['child'];
  logger.setBindings = function (this: Logger, bindings) {
    setBindings.call(this, redactSecrets(bindings));
  };
  return logger;
}

/** A logger that writes nothing, for commands and tests that have no use for log lines. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
