// The page's files are imported as text (esbuild's `with { type: 'text' }`).
declare module '*.html' {
  const text: string;
  export default text;
}
declare module '*.css' {
  const text: string;
  export default text;
}
