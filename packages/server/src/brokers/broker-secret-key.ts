// Where the broker secret key comes from, decided once at start:
// 1. VYUHA_BROKER_SECRET_KEY (base64 of 32 bytes): any deployment, required with DATABASE_URL;
// 2. else, with the embedded database, DATA_DIR/broker-secret.key, created at first start with
//    mode 600 beside postgres-credentials.json (the key lives where the data lives);
// 3. else no key: set_broker_secret refuses until the variable is set.
// Losing the key makes every stored secret unreadable, so an existing key file is never
// replaced: a damaged one stops the start instead.
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../config';
import { BROKER_SECRET_KEY_BYTES, brokerSecretKey, generateBrokerSecretKey } from './broker-secrets';
import type { BrokerSecretKey } from './broker-secrets';

export const BROKER_SECRET_KEY_VARIABLE = 'VYUHA_BROKER_SECRET_KEY';
export const BROKER_SECRET_KEY_FILE = 'broker-secret.key';

export interface LoadBrokerSecretKeyOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly dataDir: string;
  /** True when the server runs the embedded PostgreSQL (no DATABASE_URL). */
  readonly embedded: boolean;
}

/** The key and where it came from (for one line in the start log: never the key itself). */
export interface LoadedBrokerSecretKey {
  readonly key: BrokerSecretKey | undefined;
  readonly source: 'environment' | 'key-file' | 'new-key-file' | 'none';
}

/**
 * Loads the broker secret key: the variable, else the embedded setup's key file (created when
 * missing), else none. A malformed variable or key file is a ConfigError naming it.
 * @example await loadBrokerSecretKey({ env: {}, dataDir, embedded: false }) // { key: undefined, source: 'none' }
 */
export async function loadBrokerSecretKey(options: LoadBrokerSecretKeyOptions): Promise<LoadedBrokerSecretKey> {
  const raw = options.env[BROKER_SECRET_KEY_VARIABLE]?.trim();
  if (raw !== undefined && raw !== '') {
    const bytes = decodeKey(raw);
    if (bytes === undefined) {
      // The value may be a real key with a typo: say what is wrong, never echo it.
      throw new ConfigError(`${BROKER_SECRET_KEY_VARIABLE} must be the base64 of exactly ${BROKER_SECRET_KEY_BYTES} bytes (e.g. from "openssl rand -base64 32"); the value set (${raw.length} characters) is not`);
    }
    return { key: brokerSecretKey(bytes), source: 'environment' };
  }
  if (!options.embedded) return { key: undefined, source: 'none' };
  return readOrCreateKeyFile(join(options.dataDir, BROKER_SECRET_KEY_FILE), options.dataDir);
}

/**
 * One line for the start log: the key's id and where it came from, never the key.
 * @example describeBrokerSecretKey({ key: undefined, source: 'none' }) // 'broker secret key: none (set VYUHA_BROKER_SECRET_KEY to store broker API secrets)'
 */
export function describeBrokerSecretKey(loaded: LoadedBrokerSecretKey): string {
  if (loaded.key === undefined) return `broker secret key: none (set ${BROKER_SECRET_KEY_VARIABLE} to store broker API secrets)`;
  const from = {
    environment: BROKER_SECRET_KEY_VARIABLE,
    'key-file': `DATA_DIR/${BROKER_SECRET_KEY_FILE}`,
    'new-key-file': `DATA_DIR/${BROKER_SECRET_KEY_FILE} (created now: back it up with the database)`,
    none: 'nowhere',
  }[loaded.source];
  return `broker secret key ${loaded.key.id} from ${from}`;
}

/** Standard base64 (padding optional) of exactly 32 bytes, else undefined. */
function decodeKey(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== BROKER_SECRET_KEY_BYTES) return undefined;
  // Node ignores stray trailing bits; a canonical round trip rejects a mistyped last character.
  return bytes.toString('base64').replace(/=+$/, '') === text.replace(/=+$/, '') ? bytes : undefined;
}

async function readOrCreateKeyFile(file: string, dataDir: string): Promise<LoadedBrokerSecretKey> {
  const existing = await readExistingKeyFile(file);
  if (existing !== undefined) return { key: existing, source: 'key-file' };
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  const key = generateBrokerSecretKey();
  try {
    // `wx`: never overwrite a key another process wrote a moment ago.
    await writeFile(file, `${key.key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const written = await readExistingKeyFile(file);
    if (written === undefined) throw new ConfigError(`${file} appeared while being created but cannot be read`);
    return { key: written, source: 'key-file' };
  }
  return { key, source: 'new-key-file' };
}

async function readExistingKeyFile(file: string): Promise<BrokerSecretKey | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const bytes = decodeKey(text.trim());
  if (bytes === undefined) {
    throw new ConfigError(`${file} is not the base64 of ${BROKER_SECRET_KEY_BYTES} bytes. Restore it from a backup (secrets stored with it cannot be read without it), or set ${BROKER_SECRET_KEY_VARIABLE}`);
  }
  // A copied or restored file may have come back readable by others: only the owner may read a key.
  if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
  return brokerSecretKey(bytes);
}
