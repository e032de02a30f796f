// The error a browser test raises where its browser is missing: what, where, and the command that
// installs it (scripts/ensure-<name>.mjs runs apt-get as root on Debian 12; `npm test` does this).

export function missingBrowser(
  title: string,
  path: string,
  aptPackage: string,
  env: string,
): Error {
  const script = `scripts/ensure-${title.toLowerCase()}.mjs`;
  return new Error(
    `${title} is missing at ${path}: the browser tests need it. On Debian 12 run \`node ${script}\` as root ` +
      `(it runs \`apt-get install -y ${aptPackage}\`; \`npm test\` does this itself as root), or point $${env} at a ${title} binary.`,
  );
}
