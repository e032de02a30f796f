// Types of scripts/pack-install.mjs (for test/pack.test.ts).
export function localDependencies(root: string, names: string[]): Record<string, string>;
export function installTarball(root: string, dir: string, tarball: string, cache: string, options: { dawn: boolean }): string;
export function packAndInstall(root: string, work: string): { tarball: string; files: string[]; consumer: string; cache: string };
