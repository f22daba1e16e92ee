import { createHash } from 'node:crypto';

/** The fixed project namespace under which every catalogue UUID is derived (never change it). */
export const TCG_UUID_NAMESPACE = '6f1c1a3e-2b4d-5c8e-9f10-7a2b3c4d5e6f';

// Namespaces are few and ids many (a million variants per load): parse each namespace once.
const namespaceBytes = new Map<string, Buffer>();

function uuidBytes(uuid: string): Buffer {
  let bytes = namespaceBytes.get(uuid);
  if (!bytes) {
    const hex = uuid.replace(/-/g, '');
    if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`not a UUID: ${uuid}`);
    bytes = Buffer.from(hex, 'hex');
    namespaceBytes.set(uuid, bytes);
  }
  return bytes;
}

/** RFC 9562 version-5 (SHA-1, name-based) UUID of `name` under `namespace`. */
export function uuidV5(name: string, namespace: string = TCG_UUID_NAMESPACE): string {
  const hash = createHash('sha1').update(uuidBytes(namespace)).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const h = hash.toString('hex', 0, 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}
