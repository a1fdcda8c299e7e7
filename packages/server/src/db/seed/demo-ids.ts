import { createHash } from 'node:crypto';

/**
 * A stable UUID for a demo-world row that has no natural key (a credit grant, a run), so that
 * seeding twice hits ON CONFLICT on the primary key instead of inserting a copy. RFC 9562
 * version 8 (application-defined), derived from a SHA-256 of the label.
 *
 * @example demoUuid('run:advanced:1') // always the same 8xxx-style UUID
 */
export function demoUuid(label: string): string {
  const bytes = createHash('sha256').update(`vyuha-demo-world:${label}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
