// Makes sure this machine has the Chromium the browser tests drive (test/helpers/chromium.ts,
// through playwright-core, which never downloads a browser here): $CHROMIUM, else Debian's
// /usr/bin/chromium.
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
import { ensureBrowser } from './ensure-browser.mjs';

process.exit(
  ensureBrowser(
    {
      title: 'Chromium',
      env: 'CHROMIUM',
      defaultPath: '/usr/bin/chromium',
      aptPackage: 'chromium',
    },
    process.argv,
  ),
);
