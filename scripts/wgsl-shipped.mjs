// The text of a shaders/*.wgsl file as the package ships it (scripts/embed-shaders.mjs): its
// comments taken out, every line kept, so that a compile error's line number is the file's. The
// comments are for readers of the files; a bundle carries the kernels alone. WGSL has no string
// literals, so `//` always starts a comment.

/** @param {string} text */
export function shippedWgsl(text) {
  return text.replace(/[ \t]*\/\/.*$/gm, '');
}
