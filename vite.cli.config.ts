/**
 * The `perps` command line, built to out/cli so bin/perps.js runs plain JavaScript (no TypeScript
 * compiler at start-up). `npm run build:cli` runs this; `npm run build`, `npm install` and the vitest
 * global setup do too.
 *
 * Our own TypeScript (src/cli and what it imports from src/main, src/shared and src/sim) is bundled as ES
 * modules with code splitting: main.js holds the command table, and each command's module, loaded with
 * import() only when the command line names it, lands in its own chunk with what it needs. Every bare
 * import (an npm package or a Node built-in) stays external and is loaded from node_modules at run
 * time: keytar is a native addon, and the rest need no second copy.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));

/** A bare specifier ('commander', 'node:fs', '@noble/hashes/sha3'): neither relative nor absolute. */
function isBare(id: string): boolean {
  return !id.startsWith('.') && !path.isAbsolute(id) && !id.startsWith('\0');
}

export default defineConfig({
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
