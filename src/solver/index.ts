// The GPU rigid-body solver that drives the demos (kept apart from the narrowphase API).
export { GpuWorld2D, type WorldBody2D, type WorldOptions2D } from './world2d.ts';
export { GpuColoring, COLOR_NONE, COLOR_ROUNDS, type ColoringInputs } from './coloring.ts';
export { shapeMass2D, type MassProperties2D } from './mass2d.ts';
export { SOLVER_LAYOUT_2D } from './layout2d.ts';
export * as solverConstants from './constants.ts';
