// Makes sure this machine has the Chromium the browser tests drive (test/browser.test.ts through
// playwright-core, which never downloads a browser here): $CHROMIUM, else Debian's /usr/bin/chromium.
//
//   node scripts/ensure-chromium.mjs           where it is missing and this may install (root on
//                                              Debian 12), `apt-get install -y chromium`
//   node scripts/ensure-chromium.mjs --check   look only, never install
//
// Prints `Chromium: <version>` and exits 0, or prints why not and the command to run and exits 1.
// Environment:
//   WEBGPU_NARROWPHASE_NO_INSTALL=1        never install (as in scripts/ensure-webgpu.mjs)
//   WEBGPU_NARROWPHASE_FAKE_NO_CHROMIUM=1  the first look finds none (to exercise the install path;
//                                          the look after it is real)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const path = process.env.CHROMIUM ?? '/usr/bin/chromium';
const INSTALL = ['apt-get', 'install', '-y', 'chromium'];

function version() {
  if (!existsSync(path)) return null;
  const r = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  return r.status === 0 ? (r.stdout || '').trim() || path : null;
}

function isDebian12() {
  try {
    return readFileSync('/etc/debian_version', 'utf8').trim().startsWith('12');
  } catch {
    return false;
  }
}

function run(cmd, args) {
  console.log(`$ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (r.error) console.error(`${cmd}: ${r.error.message}`);
  return r.status === 0;
}

function main() {
  const fake = process.env.WEBGPU_NARROWPHASE_FAKE_NO_CHROMIUM;
  let v = fake && fake !== '0' ? null : version();
  if (v) {
    console.log(`Chromium: ${v}`);
    return 0;
  }
  console.error(`No working Chromium at ${path} (the browser tests need it).`);
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const noInstall = !!process.env.WEBGPU_NARROWPHASE_NO_INSTALL && process.env.WEBGPU_NARROWPHASE_NO_INSTALL !== '0';
  const custom = process.env.CHROMIUM !== undefined;
  if (!isDebian12() || !root || noInstall || custom || process.argv.includes('--check')) {
    const why = custom ? '$CHROMIUM names another path' : !isDebian12() ? 'this is not Debian 12' : !root ? 'not running as root' : noInstall ? 'WEBGPU_NARROWPHASE_NO_INSTALL is set' : '--check';
    console.error(`Nothing is installed automatically (${why}). Install Debian's Chromium with:\n\n  ${root ? '' : 'sudo '}apt-get update && ${root ? '' : 'sudo '}${INSTALL.join(' ')}\n\nor set $CHROMIUM to a Chromium binary, then run \`npm test\` again.`);
    return 1;
  }
  console.log("Installing Debian's chromium package for the browser tests.");
  if (!run('apt-get', ['update'])) console.error('apt-get update reported errors; trying the install anyway.');
  if (!run(INSTALL[0], INSTALL.slice(1))) {
    console.error(`The install failed (see above). Run \`${INSTALL.join(' ')}\` yourself.`);
    return 1;
  }
  v = version();
  if (!v) {
    console.error(`Still no working Chromium at ${path} after the install.`);
    return 1;
  }
  console.log(`Chromium: ${v}`);
  return 0;
}

process.exit(main());
