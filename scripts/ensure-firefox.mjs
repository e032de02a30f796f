// Makes sure this machine has the Firefox the browser tests drive (test/helpers/firefox.ts,
// through puppeteer-core over WebDriver BiDi, which never downloads a browser here): $FIREFOX,
// else Debian's /usr/bin/firefox-esr (Debian 12's firefox-esr package: 153 ESR from
// bookworm-security, whose WebGPU runs on lavapipe with the prefs in test/helpers/firefox.ts).
//
//   node scripts/ensure-firefox.mjs           where it is missing and this may install (root on
//                                             Debian 12), `apt-get install -y firefox-esr`
//   node scripts/ensure-firefox.mjs --check   look only, never install
//
// Prints `Firefox: <version>` and exits 0, or prints why not and the command to run and exits 1.
// Environment:
//   WEBGPU_NARROWPHASE_NO_INSTALL=1       never install (as in scripts/ensure-webgpu.mjs)
//   WEBGPU_NARROWPHASE_FAKE_NO_FIREFOX=1  the first look finds none (to exercise the install path)
import { ensureBrowser } from './ensure-browser.mjs';

process.exit(
  ensureBrowser(
    {
      title: 'Firefox',
      env: 'FIREFOX',
      defaultPath: '/usr/bin/firefox-esr',
      aptPackage: 'firefox-esr',
    },
    process.argv,
  ),
);
