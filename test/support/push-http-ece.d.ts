/** Types for `http_ece` (no published types): only what the test push service uses. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  export type DecryptParams = {
    version: 'aes128gcm' | 'aesgcm' | 'aesgcm128';
    privateKey?: ECDH;
    authSecret?: Buffer | string;
    dh?: Buffer | string;
    salt?: Buffer | string;
    rs?: number;
  };

  export function decrypt(buffer: Buffer, params: DecryptParams): Buffer;
  export function encrypt(buffer: Buffer, params: DecryptParams): Buffer;
}
