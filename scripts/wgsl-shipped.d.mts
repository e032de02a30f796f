/** The text of a shaders/*.wgsl file as the package ships it: comments out, every line kept. */
export function shippedWgsl(text: string): string;
