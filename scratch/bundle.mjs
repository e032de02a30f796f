import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
const which = process.argv[2] ?? 'GpuFrame2D, GpuFrame3D';
const r = await build({ stdin: { contents: `import { ${which} } from './src/index.ts'; console.log(${which});`, resolveDir: process.cwd(), loader: 'ts' }, bundle: true, write: false, minify: true, format: 'esm', platform: 'browser', metafile: true, external: ['webgpu'], logLevel: 'error', target: 'es2022' });
const code = r.outputFiles[0].text;
const bytes = (re) => Object.values(r.metafile.outputs).reduce((n, o) => n + Object.entries(o.inputs).filter(([p]) => re.test(p)).reduce((m, [, i]) => m + i.bytesInOutput, 0), 0);
console.log(which, code.length, 'gz', gzipSync(code).length, 'shaders', bytes(/shaders\.generated/), 'wgsl_reflect', bytes(/wgsl_reflect/));
const big = Object.entries(Object.values(r.metafile.outputs)[0].inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput).slice(0, 8).map(([p, i]) => `${p} ${i.bytesInOutput}`);
console.log(big.join('\n'));
for (const m of code.matchAll(/fn (solver\w*|bp\w*|ct\w*|wl\w*|ru\w*|radix\w*|color\w*)\(/g)) {}
console.log('solver fn?', /fn solver\w*\(/.test(code), 'coloring?', /fn color\w*\(/.test(code));
