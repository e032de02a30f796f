// Types of scripts/pack-install.mjs (for test/pack.test.ts).
export function packAndInstall(root: string, work: string): { tarball: string; files: string[]; consumer: string };
