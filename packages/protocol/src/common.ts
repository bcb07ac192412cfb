import Type from 'typebox';

/**
 * An integer in a request, bounded on both sides and finite. Ajv coerces a query string of 400 digits (or
 * "Infinity") to Infinity and then skips `maximum` for it, so every integer carries `finite`, a keyword the
 * server's validator adds; without it such a value reached PostgreSQL's bigint cast as a 500.
 */
export const Int = (options: { minimum: number; maximum: number; default?: number }) => Type.Integer({ ...options, finite: true });

/** A database id in a request: a positive integer JavaScript holds exactly (1e20 is refused with a 400). */
export const Id = Int({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

/** A value that may be absent on the server's side: sent as null, never left out. */
export const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The answer of a route that removes something. */
export const Deleted = Type.Object({ deleted: Type.Boolean() });
