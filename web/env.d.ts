// Vite's `?raw` imports: a file's text as a string (the page quotes src/lesson code verbatim).
declare module "*?raw" {
  const text: string;
  export default text;
}
