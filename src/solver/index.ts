// The GPU rigid-body solver that drives the demos (kept apart from the narrowphase API).
export { GpuWorld2D, type WorldBody2D, type WorldOptions2D } from './world2d.ts';
export {
  GpuColoring,
  COLOR_COUNT,
  COLOR_DISPATCHES,
  COLOR_FULL,
  COLOR_NONE,
  COLOR_ORDER_HEADER,
  COLOR_ROUNDS,
  type ColoringInputs,
  type ColoringOutputs,
} from './coloring.ts';
export { shapeMass2D, type MassProperties2D } from './mass2d.ts';
export { SOLVER_LAYOUT_2D } from './layout2d.ts';
export * as solverConstants from './constants.ts';
export { GpuWorld3D, type WorldBody3D, type WorldOptions3D } from './world3d.ts';
export { shapeMass3D, invertMat3, type MassProperties3D, type Mat3 } from './mass3d.ts';
export { SOLVER_LAYOUT_3D } from './layout3d.ts';
