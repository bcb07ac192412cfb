import type { TSchema } from 'typebox';
import Value from 'typebox/value';

/** Why `value` is outside `schema`: its first few mismatches as "path message", for the contract checks' errors. */
export function mismatches(schema: TSchema, value: unknown, count = 3): string {
  return Value.Errors(schema, value)
    .slice(0, count)
    .map((error) => `${error.instancePath || '/'} ${error.message}`)
    .join('; ');
}
