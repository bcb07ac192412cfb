import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/**
 * Fastify's own schema compilers (Ajv for requests, fast-json-stringify for answers), each schema compiled when
 * its route is first used instead of when the route is registered.
 *
 * Compiling every route's schemas took 336 ms of a 1.8 s start in a restart's CPU profile (2026-11-27: 186 ms of
 * validators, 150 ms of serializers, for about 95 and 85 schemas), the largest part of building the app, and a
 * restarted server has a crowd reconnecting that needs a handful of routes. A route's first request pays for its
 * own schemas (about 2 ms each, once per process). Nothing compiles the rest in the background: on a loaded
 * server that only moves the stall (with a warm-up 10 s after listening, two restart benchmarks measured a steady
 * p99 of 108 and 132 ms at 1 000 msgs/s; without it 37 and 62 ms). `test/lazy-schemas.test.ts` compiles every
 * schema of the app, so a broken one still fails a test.
 *
 * Ajv also checks each schema against its meta-schema before compiling it, and compiles that meta-schema first,
 * 38 ms at the first request after a start (2026-11-28), in the middle of the reconnecting crowd. Requests' schemas
 * are compiled without that check; `compileSome` (the test) compiles each schema with it as well.
 *
 * Fastify counts compilers from a `compilersFactory` as custom: it then compiles a `headers` schema as written
 * instead of lowercasing its names. No route has one; one that needs it must spell its header names lowercase.
 */
export interface LazySchemas {
  compilersFactory: CompilersFactory;
  /** Schemas not compiled yet. */
  readonly pending: number;
  /**
   * Compiles up to `count` of the schemas not compiled yet, a validator's also checked against Ajv's meta-schema,
   * and answers what the broken ones threw. One that does not compile is left to its first request, which answers
   * 500 with the same error; one that only fails the meta-schema check is compiled by its request all the same.
   */
  compileSome(count: number): Error[];
}

type Compiler = (definition: unknown) => (...args: unknown[]) => unknown;

export function lazySchemas(): LazySchemas {
  const buildValidator = AjvCompiler() as unknown as (externalSchemas: unknown, options: unknown) => Compiler;
  const buildSerializer = SerializerSelector() as unknown as (externalSchemas: unknown, options: unknown) => Compiler;
  /** Each schema's compile, until it has run (by a request or by compileSome), with its meta-schema check. */
  const pending = new Map<() => void, (() => void) | undefined>();

  function lazily(compile: Compiler, definition: unknown, isValidator: boolean, check?: () => void) {
    let compiled: ((...args: unknown[]) => unknown) | undefined;
    let broken: unknown;
    const ensure = () => {
      if (compiled) return compiled;
      // A schema that does not compile throws the same at every request (a 500), without compiling it again.
      if (broken !== undefined) throw broken;
      try {
        compiled = compile(definition);
        return compiled;
      } catch (error) {
        broken = error;
        throw error;
      } finally {
        pending.delete(ensure);
      }
    };
    pending.set(ensure, check);
    const run = (...args: unknown[]) => {
      const fn = ensure();
      const result = fn(...args);
      // Fastify reads a failed validation's errors from the function it was given.
      if (isValidator) (run as unknown as { errors: unknown }).errors = (fn as unknown as { errors: unknown }).errors;
      return result;
    };
    // Fastify passes Ajv's functions (they have a `schemaEnv`) the request as the value's parent, so that Ajv may
    // replace a coerced top-level value; the call is forwarded as is.
    if (isValidator) (run as unknown as { schemaEnv: boolean }).schemaEnv = true;
    return run;
  }

  return {
    compilersFactory: {
      buildValidator: ((externalSchemas: unknown, options: { customOptions?: object }) => {
        const compile = buildValidator(externalSchemas, { ...options, customOptions: { ...options.customOptions, validateSchema: false } });
        let checking: Compiler | undefined;
        const check = (definition: unknown) => () => {
          checking ??= buildValidator(externalSchemas, { ...options, customOptions: { ...options.customOptions, validateSchema: true } });
          checking(definition);
        };
        return (definition: unknown) => lazily(compile, definition, true, check(definition));
      }) as unknown as CompilersFactory['buildValidator'],
      buildSerializer: ((externalSchemas: unknown, options: unknown) => {
        const compile = buildSerializer(externalSchemas, options);
        return (definition: unknown) => lazily(compile, definition, false);
      }) as unknown as CompilersFactory['buildSerializer'],
    },
    get pending() {
      return pending.size;
    },
    compileSome(count) {
      const failures: Error[] = [];
      for (const [ensure, check] of [...pending].slice(0, count)) {
        try {
          ensure();
          check?.();
        } catch (error) {
          failures.push(error instanceof Error ? error : new Error(String(error)));
        }
      }
      return failures;
    },
  };
}
