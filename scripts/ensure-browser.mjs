// Makes sure this machine has a browser the browser tests drive (Debian's package, never a
// downloaded build): the shared logic of scripts/ensure-chromium.mjs and scripts/ensure-firefox.mjs.
//
// Looks for the binary ($<ENV>, else Debian's path) and asks it for its version. Where it is
// missing and this may install (root on Debian 12, no WEBGPU_NARROWPHASE_NO_INSTALL, no custom
// path, no --check), runs `apt-get update` and `apt-get install -y <package>`; otherwise prints
// the command to run. Prints `<Title>: <version>` and returns 0, or why not and returns 1.
// WEBGPU_NARROWPHASE_FAKE_NO_<ENV>=1 makes the first look find none (to exercise the install).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

function isDebian12() {
  try {
    return readFileSync('/etc/debian_version', 'utf8').trim().startsWith('12');
  } catch {
    return false;
  }
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

/**
 * @param {{ title: string, env: string, defaultPath: string, aptPackage: string }} browser
 * @param {string[]} argv
 * @returns {number} the exit code
 */
export function ensureBrowser(browser, argv) {
  const path = process.env[browser.env] ?? browser.defaultPath;
  const install = ['apt-get', 'install', '-y', browser.aptPackage];
  const version = () => {
    if (!existsSync(path)) return null;
    const r = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 60_000 });
    return r.status === 0 ? (r.stdout || '').trim().split('\n')[0] || path : null;
  };
  const fake = process.env[`WEBGPU_NARROWPHASE_FAKE_NO_${browser.env}`];
  let v = fake && fake !== '0' ? null : version();
  if (v) {
    console.log(`${browser.title}: ${v}`);
    return 0;
  }
  console.error(`No working ${browser.title} at ${path} (the browser tests need it).`);
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const noInstall =
    !!process.env.WEBGPU_NARROWPHASE_NO_INSTALL &&
    process.env.WEBGPU_NARROWPHASE_NO_INSTALL !== '0';
  const custom = process.env[browser.env] !== undefined;
  if (!isDebian12() || !root || noInstall || custom || argv.includes('--check')) {
    const why = custom
      ? `$${browser.env} names another path`
      : !isDebian12()
        ? 'this is not Debian 12'
        : !root
          ? 'not running as root'
          : noInstall
            ? 'WEBGPU_NARROWPHASE_NO_INSTALL is set'
            : '--check';
    const sudo = root ? '' : 'sudo ';
    console.error(
      `Nothing is installed automatically (${why}). Install Debian's ${browser.title} with:\n\n  ${sudo}apt-get update && ${sudo}${install.join(' ')}\n\nor set $${browser.env} to a ${browser.title} binary, then run \`npm test\` again.`,
    );
    return 1;
  }
  console.log(`Installing Debian's ${browser.aptPackage} package for the browser tests.`);
  if (!run('apt-get', ['update']))
    console.error('apt-get update reported errors; trying the install anyway.');
  if (!run(install[0], install.slice(1))) {
    console.error(`The install failed (see above). Run \`${install.join(' ')}\` yourself.`);
    return 1;
  }
  v = version();
  if (!v) {
    console.error(`Still no working ${browser.title} at ${path} after the install.`);
    return 1;
  }
  console.log(`${browser.title}: ${v}`);
  return 0;
}
