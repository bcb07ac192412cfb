import Type from 'typebox';

/**
 * An integer in a request, bounded on both sides and finite. Ajv coerces a query string of 400 digits (or
 * "Infinity") to Infinity and then skips `maximum` for it, so every integer carries `finite`, checked after
 * coercion by the keyword below; without it such a value reached PostgreSQL's bigint cast as a 500.
 */
export const Int = (options: { minimum: number; maximum: number; default?: number }) => Type.Integer({ ...options, finite: true });

/** A database id in a request: a positive integer JavaScript holds exactly (1e20 is refused with a 400). */
export const Id = Int({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

/** Ajv keyword `finite: true`: the (coerced) number is finite. Registered on the app's validator (app.ts). */
export function finiteKeyword<A>(ajv: A): A {
  (ajv as unknown as { addKeyword(definition: object): unknown }).addKeyword({
    keyword: 'finite',
    // No `type: 'number'` here: Ajv would guard the keyword with isFinite too and never run it for Infinity.
    schemaType: 'boolean',
    errors: false,
    validate: (required: boolean, data: unknown) => !required || typeof data !== 'number' || Number.isFinite(data),
  });
  return ajv;
}
