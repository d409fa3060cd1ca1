import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = [unknown, ...unknown[]];

/**
 * `request.log`: Fastify makes a child of the app's logger for every request (the request id
 * bound), though most requests never log through it (the access line has a logger of its own,
 * platform/http/access-log.ts). This one makes that child, with the same bindings and options,
 * the first time a line is logged at an enabled level, so a request that logs nothing does not
 * pay for it (a pino child with the redaction paths: ~1.5 µs and its garbage).
 */
export class LazyRequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger & { isLevelEnabled?(level: string): boolean },
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The real child, made now if it was not yet. */
  get logger(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  get level(): LevelWithSilentOrString {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.logger.level = level;
  }

  #log(level: Level, args: LogArgs): void {
    // A line below the level writes nothing: no child needed to find that out (the child keeps
    // the parent's level unless its options name one).
    if (this.#child === undefined && this.options.level === undefined && this.parent.isLevelEnabled?.(level) === false) return;
    (this.logger[level] as (...a: LogArgs) => void)(...args);
  }

  fatal(...args: LogArgs): void {
    this.#log('fatal', args);
  }
  error(...args: LogArgs): void {
    this.#log('error', args);
  }
  warn(...args: LogArgs): void {
    this.#log('warn', args);
  }
  info(...args: LogArgs): void {
    this.#log('info', args);
  }
  debug(...args: LogArgs): void {
    this.#log('debug', args);
  }
  trace(...args: LogArgs): void {
    this.#log('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: a LazyRequestLogger per request. */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options);
}
