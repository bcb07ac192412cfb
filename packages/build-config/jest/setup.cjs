// React Router 7 needs TextEncoder/TextDecoder, which jsdom lacks.
const util = require('node:util');
Object.assign(globalThis, { TextEncoder: util.TextEncoder, TextDecoder: util.TextDecoder });
// IndexedDB (fake-indexeddb in tests) stores values through structuredClone, which jsdom lacks too: Node's own
// structured serialization is the same algorithm.
if (typeof globalThis.structuredClone !== 'function') {
  const v8 = require('node:v8');
  globalThis.structuredClone = (value) => v8.deserialize(v8.serialize(value));
}
require('@testing-library/jest-dom');
