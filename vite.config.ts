// Vite serves and builds the browser demo (demo/): `npm start` (dev server on 127.0.0.1:5173, or
// the next free port) and `npm run build:demo` (static files in dist/demo/). The demo imports the
// library straight from src/. Pages: index.html (the demo), bench.html (the benchmark, from
// bench/), validation.html (GPU against the CPU reference, from test/helpers/) and three.html
// (three.js's WebGPURenderer on the world's device).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const PAGES = ['index', 'bench', 'validation', 'three'];

export default defineConfig({
  root: here('./demo'),
  // Relative asset URLs, so dist/demo/ works from any path (or a file server's subfolder).
  base: './',
  // src/gpu/device.ts loads Dawn (the `webgpu` package, Node-only, native) through a variable
  // specifier that browsers never reach; keep Vite's pre-bundler and the build off it regardless.
  optimizeDeps: { exclude: ['webgpu'] },
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1', port: 4173, strictPort: false },
  build: {
    outDir: here('./dist/demo'),
    emptyOutDir: true,
    target: 'es2022',
    // One bundle: the library (WGSL sources, CPU reference for validation) and the demo, about 560 kB.
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      external: ['webgpu'],
      input: Object.fromEntries(PAGES.map((p) => [p, here(`./demo/${p}.html`)])),
    },
  },
});
