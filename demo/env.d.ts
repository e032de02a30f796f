// Vite's `?raw` imports: the file's text (the demo's WGSL files).
declare module '*?raw' {
  const text: string;
  export default text;
}
