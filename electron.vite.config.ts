import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { devContentSecurityPolicy } from './scripts/vite/devContentSecurityPolicy';

// Three targets. The preload runs sandboxed, and a sandboxed preload cannot be an ES module, so it is
// built as one self-contained CommonJS file with its dependencies bundled in (not externalized).
export default defineConfig({
  main: {
    build: {
      externalizeDeps: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src/main/index.ts') } },
    },
  },
  preload: {
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs', inlineDynamicImports: true },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    // The dev server's page gets a policy that lets HMR and the React refresh preamble work (serve only).
    plugins: [react(), devContentSecurityPolicy()],
    build: {
      // Minified: the renderer is parsed on every start (issue 17: the first script at most 40% of its
      // unminified 1.56 MB); the screens the Trade view does not show are chunks loaded on demand
      // (src/renderer/src/app/lazyViews.tsx).
      minify: true,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/renderer/index.html') },
        // Everything the first screen runs in one file: left alone, the bundler splits the modules the
        // lazy screens share with it into small chunks, each one more request before the first screen.
        output: { codeSplitting: { groups: [{ name: 'first-screen', tags: ['$initial'] }] } },
      },
    },
  },
});
