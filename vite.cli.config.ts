/**
 * The `perps` command line, built to out/cli so bin/perps.js runs plain JavaScript (no TypeScript
 * compiler at start-up). `npm run build:cli` runs this; `npm run build` and the vitest global setup do
 * too, and bin/perps.js itself runs it when out/cli is missing or older than its sources (there is no
 * `prepare` script: under .npmrc's strict-allow-scripts it made every `npx perps` fail).
 *
 * Beside the bundle goes out/cli/inputs.json: every source file the bundle was made from and when the
 * build started. bin/perps.js compares their modification times with it to know the build is stale.
 *
 * Our own TypeScript (src/cli and what it imports from src/main, src/shared and src/sim) is bundled as ES
 * modules with code splitting: main.js holds the command table, and each command's module, loaded with
 * import() only when the command line names it, lands in its own chunk with what it needs. Every bare
 * import (an npm package or a Node built-in) stays external and is loaded from node_modules at run
 * time: keytar is a native addon, and the rest need no second copy.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));

/** A bare specifier ('commander', 'node:fs', '@noble/hashes/sha3'): neither relative nor absolute. */
function isBare(id: string): boolean {
  return !id.startsWith('.') && !path.isAbsolute(id) && !id.startsWith('\0');
}

/** The files outside the bundle's modules that shape it: a change to either rebuilds too. */
const BUILD_INPUTS = ['vite.cli.config.ts', 'package.json'];

/**
 * Writes inputs.json: the repository files the bundle was built from (our modules, not node_modules)
 * and the build's start time. A file changed after that start makes the build stale.
 */
function inputsManifest(): Plugin {
  let startedAt = 0;
  return {
    name: 'perps-cli-inputs',
    buildStart() {
      startedAt = Date.now();
    },
    generateBundle() {
      const files = new Set(BUILD_INPUTS);
      for (const id of this.getModuleIds()) {
        if (!path.isAbsolute(id) || id.includes(`${path.sep}node_modules${path.sep}`)) continue;
        const rel = path.relative(root, id);
        if (!rel.startsWith('..')) files.add(rel.split(path.sep).join('/'));
      }
      this.emitFile({ type: 'asset', fileName: 'inputs.json', source: `${JSON.stringify({ startedAt, files: [...files].sort() })}\n` });
    },
  };
}

export default defineConfig({
  plugins: [inputsManifest()],
  // No public folder, no .env loading: this is a Node program, not a web page.
  publicDir: false,
  envDir: false,
  logLevel: 'warn',
  build: {
    ssr: path.join(root, 'src/cli/main.ts'),
    outDir: path.join(root, 'out/cli'),
    emptyOutDir: true,
    target: 'node20',
    // Readable stack traces beat the few milliseconds minifying would save in parsing.
    minify: false,
    sourcemap: true,
    rolldownOptions: {
      external: (id) => isBare(id),
      // Our modules do nothing on import but define things, so one whose exports nobody uses is left out
      // and an import through an index (`export * from ...`) binds to the module that defines the name.
      // Without this, importing one error class from shared/eip712/index.js would put the signature code,
      // and with it ethers and the secp256k1 library, into every command's start-up. Packages keep their
      // import side effects.
      treeshake: { moduleSideEffects: (_id: string, external: boolean) => external },
      output: { format: 'es', entryFileNames: 'main.js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
