export type { ServerConfig } from './config';
export { readConfig, ConfigError } from './config';
export type { RunningServer } from './start';
export { startServer, HttpPortInUseError } from './start';
export type { Database } from './db/database';
export { openDatabase } from './db/database';
export { main } from './cli';
