// The request integers are part of the wire contract; their `finite` keyword is the server's validator's own.
export { Id, Int } from '@messenger/protocol';

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
