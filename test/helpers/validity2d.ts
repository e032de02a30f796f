// The independent 2D validity check lives in src/validity2d.ts (the CLI's `validate` uses it too).
export * from '../../src/validity2d.ts';
