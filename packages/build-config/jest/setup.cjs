// React Router 7 needs TextEncoder/TextDecoder, which jsdom lacks.
const util = require('node:util');
Object.assign(globalThis, { TextEncoder: util.TextEncoder, TextDecoder: util.TextDecoder });
require('@testing-library/jest-dom');
