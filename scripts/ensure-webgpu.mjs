// Makes sure this machine has a WebGPU adapter for the tests (Dawn through the `webgpu` package).
//
//   node scripts/ensure-webgpu.mjs           probe; where there is no adapter and this may install
//                                            (root on Debian 12), install Mesa lavapipe from
//                                            bookworm-backports and probe again
//   node scripts/ensure-webgpu.mjs --check   probe only, never install
//
// Prints `WebGPU adapter: <name>` and exits 0, or prints why not and the exact command(s) to run
// and exits 1. The probe runs in a child process: Dawn prints warnings on stderr (kept back
// unless the probe fails) and can keep a process alive while its GPU object lives.
//
// Environment:
//   WEBGPU_NARROWPHASE_FAKE_NO_ADAPTER=1       the first probe reports no adapter (to exercise the
//                                              install path; the re-probe after it is real)
//   WEBGPU_NARROWPHASE_FAKE_NO_ADAPTER=always  every probe reports no adapter (the failure path)
//   WEBGPU_NARROWPHASE_NO_INSTALL=1            never install anything; print the commands instead
//
// Never run from an npm install script: installing system packages is `npm test`'s job alone.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BACKPORTS_LINE = 'deb http://deb.debian.org/debian bookworm-backports main';
const BACKPORTS_FILE = '/etc/apt/sources.list.d/bookworm-backports.list';
const PACKAGES = ['mesa-vulkan-drivers', 'libvulkan1'];
const PROBE_TIMEOUT_MS = 120_000;

const self = fileURLToPath(import.meta.url);

if (process.argv.includes('--probe-child')) {
  await probeChild();
} else {
  process.exit(await main());
}

// ---------------------------------------------------------------------------------------------
// The child: one JSON line on stdout. Exit 0 adapter, 2 no adapter, 3 Dawn would not load.

async function probeChild() {
  let dawn;
  try {
    dawn = await import('webgpu');
  } catch (err) {
    process.stdout.write(JSON.stringify({ loadError: String(err?.stack || err) }) + '\n');
    process.exit(3);
  }
  try {
    Object.assign(globalThis, dawn.globals);
    const gpu = dawn.create([]);
    const a = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (!a) {
      process.stdout.write(JSON.stringify({ adapter: null }) + '\n');
      process.exit(2);
    }
    const info = a.info;
    const name =
      info.description || [info.vendor, info.architecture, info.device].filter(Boolean).join(' ');
    process.stdout.write(
      JSON.stringify({
        adapter: {
          name: name || 'unknown adapter',
          vendor: info.vendor,
          architecture: info.architecture,
          device: info.device,
          description: info.description,
        },
      }) + '\n',
    );
    process.exit(0);
  } catch (err) {
    process.stdout.write(
      JSON.stringify({ adapter: null, error: String(err?.stack || err) }) + '\n',
    );
    process.exit(2);
  }
}

// ---------------------------------------------------------------------------------------------
// The parent.

/** @returns {{ status: 'ok', adapter: any } | { status: 'none' | 'noload', detail: string }} */
function probe(attempt) {
  const fake = process.env.WEBGPU_NARROWPHASE_FAKE_NO_ADAPTER;
  if (fake && fake !== '0' && (fake === 'always' || attempt === 1)) {
    return { status: 'none', detail: `(simulated by WEBGPU_NARROWPHASE_FAKE_NO_ADAPTER=${fake})` };
  }
  const r = spawnSync(process.execPath, [self, '--probe-child'], {
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr = (r.stderr || '').trim();
  let msg;
  try {
    msg = JSON.parse((r.stdout || '').trim().split('\n').pop() || 'null');
  } catch {
    msg = null;
  }
  if (r.status === 0 && msg?.adapter) return { status: 'ok', adapter: msg.adapter };
  if (r.status === 3 && msg?.loadError) return { status: 'noload', detail: msg.loadError };
  let why;
  if (r.error) why = `the probe process failed: ${r.error.message}`;
  else if (r.signal) why = `the probe process was killed by ${r.signal}`;
  else if (msg?.error) why = `requestAdapter threw: ${msg.error}`;
  else if (r.status === 2) why = 'requestAdapter() returned null';
  else why = `the probe process exited with code ${r.status}`;
  return { status: 'none', detail: why + (stderr ? `\nDawn said:\n${indent(stderr)}` : '') };
}

async function main() {
  const checkOnly = process.argv.includes('--check');
  let p = probe(1);
  if (p.status === 'ok') return found(p.adapter);
  if (p.status === 'noload') {
    console.error(`Dawn (the \`webgpu\` package) could not be loaded:\n${indent(p.detail)}`);
    console.error(
      'Run `npm ci` first (this machine needs node_modules/webgpu, linux-x64, macOS or Windows).',
    );
    return 1;
  }
  console.error(`No WebGPU adapter found: ${p.detail}`);

  const debian12 = isDebian12();
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const noInstall =
    !!process.env.WEBGPU_NARROWPHASE_NO_INSTALL &&
    process.env.WEBGPU_NARROWPHASE_NO_INSTALL !== '0';
  if (!debian12 || !root || noInstall || checkOnly) {
    const why = !debian12
      ? 'This is not Debian 12, so nothing is installed automatically'
      : !root
        ? 'Not running as root, so nothing is installed automatically'
        : noInstall
          ? 'WEBGPU_NARROWPHASE_NO_INSTALL is set, so nothing is installed'
          : 'This was a check only (--check), so nothing is installed';
    console.error(`\n${why}.`);
    printInstructions(debian12, root);
    return 1;
  }

  console.log(
    "Installing Mesa lavapipe (software Vulkan) from bookworm-backports: Dawn refuses Debian 12's own Mesa 22.",
  );
  if (!install()) {
    console.error('\nThe install failed (see above).');
    printInstructions(true, true);
    return 1;
  }
  p = probe(2);
  if (p.status === 'ok') return found(p.adapter);
  console.error(`Still no WebGPU adapter after installing Mesa lavapipe: ${p.detail}`);
  printInstructions(true, true);
  return 1;
}

function found(adapter) {
  console.log(`WebGPU adapter: ${adapter.name}`);
  return 0;
}

function isDebian12() {
  try {
    return readFileSync('/etc/debian_version', 'utf8').trim().startsWith('12');
  } catch {
    return false;
  }
}

/** Whether some enabled apt source already names bookworm-backports. */
function hasBackportsSource() {
  const files = ['/etc/apt/sources.list'];
  try {
    for (const f of readdirSync('/etc/apt/sources.list.d')) {
      if (f.endsWith('.list') || f.endsWith('.sources')) files.push(`/etc/apt/sources.list.d/${f}`);
    }
  } catch {
    /* no sources.list.d */
  }
  for (const f of files) {
    if (!existsSync(f)) continue;
    const lines = readFileSync(f, 'utf8').split('\n');
    // deb822 stanzas may carry `Enabled: no`; treat a file that says so as not naming it.
    if (lines.some((l) => /^\s*Enabled:\s*no\b/i.test(l))) continue;
    if (lines.some((l) => !/^\s*#/.test(l) && /\bbookworm-backports\b/.test(l))) return true;
  }
  return false;
}

function run(cmd, args) {
  console.log(`$ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (r.error) console.error(`${cmd}: ${r.error.message}`);
  return r.status === 0;
}

function install() {
  if (!hasBackportsSource()) {
    console.log(`$ echo '${BACKPORTS_LINE}' > ${BACKPORTS_FILE}`);
    try {
      writeFileSync(BACKPORTS_FILE, BACKPORTS_LINE + '\n');
    } catch (err) {
      console.error(`Could not write ${BACKPORTS_FILE}: ${err.message}`);
      return false;
    }
  }
  // A failing third-party source can make `update` exit non-zero while backports was fetched:
  // let the install decide.
  if (!run('apt-get', ['update']))
    console.error('apt-get update reported errors; trying the install anyway.');
  return run('apt-get', ['install', '-y', '-t', 'bookworm-backports', ...PACKAGES]);
}

function printInstructions(debian12, root) {
  const sudo = root ? '' : 'sudo ';
  const cmds = [
    `echo '${BACKPORTS_LINE}' | ${sudo}tee ${BACKPORTS_FILE}`,
    `${sudo}apt-get update`,
    `${sudo}apt-get install -y -t bookworm-backports ${PACKAGES.join(' ')}`,
  ];
  if (debian12) {
    console.error('\nTo get a software WebGPU adapter (Mesa lavapipe), run:\n');
    for (const c of cmds) console.error(`  ${c}`);
    console.error(
      root
        ? '\nthen run `npm test` again.'
        : '\n(or run `npm test` as root, which does this itself), then run `npm test` again.',
    );
  } else {
    console.error(
      '\nDawn needs a working driver: Vulkan on Linux, Metal on macOS, D3D12 on Windows. On Linux without\n' +
        "a GPU driver, install Mesa's lavapipe (packages mesa-vulkan-drivers and libvulkan1 on Debian and\n" +
        "Ubuntu; Mesa 25 works, Debian 12's Mesa 22 is refused by Dawn). On Debian 12 the commands are:\n",
    );
    for (const c of cmds) console.error(`  ${c}`);
  }
}

function indent(s) {
  return s
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
