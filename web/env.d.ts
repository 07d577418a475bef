// Vite's `?raw` imports: a file's text as a string (the page quotes src/lesson code verbatim).
declare module "*?raw" {
  const text: string;
  export default text;
}

// web/vite.config.ts's lessonCode(): the src/lesson regions the code boxes quote, by "file:region".
declare module "virtual:lesson-code" {
  export const CODE_REGIONS: Readonly<Record<string, readonly string[]>>;
}
