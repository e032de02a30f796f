// wgsl_reflect's ESM build has no types entry of its own; it is the same API as the package root.
declare module 'wgsl_reflect/wgsl_reflect.module.js' {
  export * from 'wgsl_reflect';
}
