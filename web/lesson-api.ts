// TEMPORARY: the page's one import point for the lesson API, pointing at the mock for now.

export { isPageMessageKey, pageText } from "../src/lesson/web-support/page-messages.js";
export * from "./mock-lesson.js";
