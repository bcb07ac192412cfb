import Type from 'typebox';
import { LANGUAGES } from './limits.js';

/** base64url, as `PushSubscription.toJSON()` gives the keys. */
const BASE64URL = '^[A-Za-z0-9_-]+=*$';

/** A browser's push subscription (`PushSubscription.toJSON()`) and the language its notifications speak. */
export const SubscribeBody = Type.Object(
  {
    endpoint: Type.String({ minLength: 1, maxLength: 1024 }),
    keys: Type.Object(
      {
        // The browser's P-256 public key (65 bytes) and its 16-byte auth secret.
        p256dh: Type.String({ minLength: 80, maxLength: 100, pattern: BASE64URL }),
        auth: Type.String({ minLength: 16, maxLength: 32, pattern: BASE64URL }),
      },
      { additionalProperties: false },
    ),
    language: Type.Union(LANGUAGES.map((code) => Type.Literal(code))),
  },
  { additionalProperties: false },
);

export const UnsubscribeBody = Type.Object({ endpoint: Type.String({ minLength: 1, maxLength: 1024 }) }, { additionalProperties: false });

/** Web Push: the server's public key. (Saving and removing a subscription answer 204 with no body.) */
export const pushRoutes = {
  key: { method: 'GET', url: '/push/key', response: Type.Object({ public_key: Type.String() }) },
} as const;
