/**
 * Loading the simulator configuration.
 *
 * The defaults live in resources/sim/default-config.json. An override (a --config file or the
 * `config` option of startSimulator) is MERGED onto them: objects merge key by key, recursively;
 * arrays and scalars replace (so an override's `markets` array is the whole market list). An
 * override whose top level has `"replace_defaults": true` is used on its own instead, and must then
 * be complete. The result is validated; errors name the field.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatPath } from '../../shared/protocol/envelope.js';
import { SimConfigSchema, type SimConfig } from './schema.js';

const DEFAULT_CONFIG_RELATIVE = path.join('resources', 'sim', 'default-config.json');

/**
 * resources/ sits at the package root. This module runs from src/sim/config (tsx, tests) or from a
 * bundle chunk (out/cli/chunks, out/main), at different depths, so the root is found by walking up to the
 * nearest folder that has the file rather than by a fixed number of '..'.
 */
function findDefaultConfig(): string {
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, DEFAULT_CONFIG_RELATIVE);
    if (fs.existsSync(candidate)) return candidate;
    // At the file system root: report the path the source layout expects (reading it then says it is missing).
    if (path.dirname(dir) === dir) return path.resolve(start, '../../..', DEFAULT_CONFIG_RELATIVE);
  }
}

export const DEFAULT_CONFIG_PATH = findDefaultConfig();

export class SimConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SimConfigError';
  }
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Recursive merge: objects merge, everything else (arrays included) replaces. */
export function mergeConfig(base: unknown, override: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(override)) return override === undefined ? base : override;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(override)) out[k] = mergeConfig(base[k], v);
  return out;
}

export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new SimConfigError(`cannot read config ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text) as Json;
  } catch (err) {
    throw new SimConfigError(`config ${file} is not valid JSON: ${(err as Error).message}`);
  }
}

export function defaultConfigJson(): unknown {
  return readJsonFile(DEFAULT_CONFIG_PATH);
}

/** Validates a complete config object. */
export function parseSimConfig(value: unknown, what = 'config'): SimConfig {
  const r = SimConfigSchema.safeParse(value);
  if (r.success) return r.data;
  const lines = r.error.issues.slice(0, 10).map((i) => `${formatPath(i.path)}: ${i.message}`);
  throw new SimConfigError(`${what} is invalid:\n  ${lines.join('\n  ')}`);
}

/** Applies overrides (each merged in order, or replacing when it says replace_defaults) and validates. */
export function resolveSimConfig(...overrides: unknown[]): SimConfig {
  let merged: unknown = defaultConfigJson();
  for (const o of overrides) {
    if (o === undefined || o === null) continue;
    if (!isPlainObject(o)) throw new SimConfigError('a config override must be a JSON object');
    const { replace_defaults: replace, ...rest } = o;
    merged = replace === true ? rest : mergeConfig(merged, rest);
  }
  return parseSimConfig(merged);
}

/**
 * Loads the defaults merged with an optional preset (a named market list, config/venueScale.ts), an
 * optional config file and an optional in-memory override, in that order: a file can still adjust a preset.
 */
export function loadSimConfig(file?: string, override?: unknown, preset?: unknown): SimConfig {
  return resolveSimConfig(preset, file ? readJsonFile(file) : undefined, override);
}
